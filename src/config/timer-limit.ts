/** Largest delay a JavaScript timer honours (2^31 - 1 ms, about 24.8 days); longer ones fire after 1 ms. */
export const MAX_TIMER_MS = 2_147_483_647;
