/** What every line the guard logs starts with, so its lines can be found among ADK's and the application's. */
export const LOG_PREFIX = '[context_guard]';
