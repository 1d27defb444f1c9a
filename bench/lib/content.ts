/**
 * Deterministic, realistic payloads for the benchmark: JSON tool output, server
 * logs, source code, English prose and CJK prose. Each generator returns text
 * (or, for JSON, a structured object) of about the requested size, the same for
 * the same seed, so two strategies see byte-identical histories.
 */

/** mulberry32: small, fast, deterministic. */
export class Random {
  private state: number;
  constructor(seed: number) {
    this.state = (seed * 0x9e3779b1) >>> 0 || 1;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(max: number): number {
    return Math.floor(this.next() * max);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }
  hex(digits: number): string {
    let out = '';
    for (let i = 0; i < digits; i++) out += '0123456789abcdef'[this.int(16)];
    return out;
  }
}

export type PayloadKind = 'json' | 'logs' | 'code' | 'prose' | 'cjk';
export const PAYLOAD_KINDS: readonly PayloadKind[] = ['json', 'logs', 'code', 'prose', 'cjk'];

const WORDS = (
  'the a of and to in for with on after before because while every most some service request latency deploy cluster customer ' +
  'order invoice cache region failover rollback metric threshold budget window summary incident owner migration schema index ' +
  'query review release branch test coverage alert queue worker shard replica backup policy payment refund shipment warehouse ' +
  'discount account session token retry timeout upstream downstream gateway database connection pool memory pressure spike ' +
  'was is are were has have had will would should could may might must can not only also then than therefore however'
).split(' ');

/** English prose: sentences of common words with punctuation and the odd number. */
export function prose(chars: number, seed: number): string {
  const random = new Random(seed);
  const out: string[] = [];
  let length = 0;
  while (length < chars) {
    const count = 8 + random.int(16);
    const words: string[] = [];
    for (let i = 0; i < count; i++) {
      words.push(random.next() < 0.04 ? String(random.int(5000)) : random.pick(WORDS));
      if (i > 2 && i < count - 2 && random.next() < 0.08) words[words.length - 1] += ',';
    }
    const first = words[0] ?? 'the';
    words[0] = first.charAt(0).toUpperCase() + first.slice(1);
    const sentence = words.join(' ') + (random.next() < 0.1 ? '? ' : '. ');
    out.push(sentence);
    length += sentence.length;
    if (random.next() < 0.15) {
      out.push('\n\n');
      length += 2;
    }
  }
  return out.join('').slice(0, chars);
}

const HAN =
  '的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处队南给色光门即保治北造百规热领七海口东导器压志世金增争济阶油思术极交受联什认六共权收证改清己美再采转更单风切打白教速花带安场身车例真务具万每目至达走积示议声报斗完类八离华名确才科张信马节话米整空元况今集温传土许步群广石记需段研界拉林律叫且究观越织装影算低持音众书布复容儿须际商非验连断深难近矿千周委素技备半办青省列习响约支般史感劳便团往酸历市克何除消构府称太准精值号率族维划选标写存候毛亲快效斯院查江型眼王按格养易置派层片始却专状育厂京识适属圆包火住调满县局照参红细引听该铁价严龙飞';
const CJK_PUNCT = ['，', '，', '，', '。', '、', '：', '；'];

/** Chinese-like prose: runs of Han characters with CJK punctuation, no spaces. */
export function cjk(chars: number, seed: number): string {
  const random = new Random(seed);
  let out = '';
  while (out.length < chars) {
    const run = 4 + random.int(18);
    for (let i = 0; i < run; i++) out += HAN[random.int(HAN.length)];
    out += random.pick(CJK_PUNCT);
    if (random.next() < 0.03) out += String(random.int(2025));
    if (random.next() < 0.05) out += '\n';
  }
  return out.slice(0, chars);
}

const LEVELS = ['INFO', 'INFO', 'INFO', 'INFO', 'DEBUG', 'WARN', 'ERROR'];
const PATHS = [
  '/api/v1/orders',
  '/api/v1/users/me',
  '/healthz',
  '/api/v2/search',
  '/api/v1/invoices/export',
  '/metrics',
  '/api/v1/carts/checkout',
];
const SERVICES = ['orders', 'billing', 'search', 'gateway', 'auth', 'inventory'];

/** Structured server logs (ISO timestamps, levels, key=value pairs, trace ids, the odd stack trace). */
export function logs(chars: number, seed: number): string {
  const random = new Random(seed);
  const lines: string[] = [];
  let length = 0;
  let ms = 1_717_000_000_000 + random.int(10_000_000);
  while (length < chars) {
    ms += 1 + random.int(900);
    const level = random.pick(LEVELS);
    let line =
      `${new Date(ms).toISOString()} ${level.padEnd(5)} [${random.pick(SERVICES)}-${random.int(40)}] ` +
      `${random.pick(['GET', 'GET', 'POST', 'PUT'])} ${random.pick(PATHS)} status=${random.pick([200, 200, 200, 201, 204, 404, 500, 503])} ` +
      `latency_ms=${random.int(2_000)} user_id=u_${random.int(100_000)} trace=${random.hex(16)}`;
    if (level === 'ERROR' && random.next() < 0.5) {
      line += `\nError: upstream timeout after ${random.int(30_000)}ms\n    at Pool.acquire (/srv/app/node_modules/pg-pool/index.js:${random.int(400)}:11)\n    at async OrdersRepository.find (/srv/app/src/orders/repository.ts:${random.int(300)}:5)`;
    }
    lines.push(line);
    length += line.length + 1;
  }
  return lines.join('\n').slice(0, chars);
}

const VERBS = ['load', 'parse', 'merge', 'render', 'validate', 'schedule', 'resolve', 'flush'];
const NOUNS = ['Order', 'Invoice', 'Window', 'Summary', 'Batch', 'Cursor', 'Shipment'];

/** TypeScript-like source: functions, types, comments, indentation. */
export function code(chars: number, seed: number): string {
  const random = new Random(seed);
  const out: string[] = [];
  let length = 0;
  let n = 0;
  while (length < chars) {
    n++;
    const name = `${random.pick(VERBS)}${random.pick(NOUNS)}${n}`;
    const type = `${random.pick(NOUNS)}Input`;
    const block = [
      `/**`,
      ` * ${prose(40 + random.int(60), random.int(1e9)).replace(/\n/g, ' ')}`,
      ` */`,
      `export async function ${name}(input: ${type}, options: { limit?: number; signal?: AbortSignal } = {}): Promise<Result<number>> {`,
      `  const limit = options.limit ?? ${random.int(500)};`,
      `  const items = Array.isArray(input.items) ? input.items.slice(0, limit) : [];`,
      `  let total = 0;`,
      `  for (const [index, item] of items.entries()) {`,
      `    if (options.signal?.aborted) throw new AbortError('${name} aborted at ' + index);`,
      `    if (typeof item.amount === 'number' && item.amount > ${random.int(100)}) {`,
      `      total += item.amount * ${1 + random.int(9)}; // ${random.pick(WORDS)} ${random.pick(WORDS)}`,
      `    }`,
      `  }`,
      `  return { ok: true, value: Math.round(total * 100) / 100 };`,
      `}`,
      '',
    ].join('\n');
    out.push(block);
    length += block.length + 1;
  }
  return out.join('\n').slice(0, chars);
}

/** A JSON tool result: search results with nested records, about `chars` characters once serialised. */
export function jsonRecords(chars: number, seed: number): { total: number; page: number; results: unknown[] } {
  const random = new Random(seed);
  const results: unknown[] = [];
  let length = 40;
  while (length < chars) {
    const itemCount = 1 + random.int(4);
    const record = {
      id: `ord_${random.hex(12)}`,
      status: random.pick(['paid', 'shipped', 'refunded', 'pending', 'cancelled']),
      created_at: new Date(1_700_000_000_000 + random.int(3e10)).toISOString(),
      customer: {
        id: `cus_${random.hex(8)}`,
        name: `${random.pick(['Ana', 'Bo', 'Chen', 'Dmitri', 'Eve', 'Farah'])} ${random.pick(['Ng', 'Silva', 'Okafor', 'Kim', 'Weber'])}`,
        email: `user${random.int(99999)}@example.com`,
        tier: random.pick(['free', 'pro', 'enterprise']),
      },
      items: Array.from({ length: itemCount }, () => ({
        sku: `SKU-${random.int(99999)}`,
        qty: 1 + random.int(5),
        unit_price: Math.round(random.next() * 50000) / 100,
        currency: 'EUR',
      })),
      shipping: {
        country: random.pick(['DE', 'FR', 'US', 'JP', 'BR']),
        carrier: random.pick(['dhl', 'ups', 'fedex']),
        tracking: random.next() < 0.6 ? random.hex(20) : null,
      },
      notes: random.next() < 0.3 ? prose(30 + random.int(120), random.int(1e9)) : '',
      flags: { fraud_check: random.next() < 0.9, gift: random.next() < 0.1 },
    };
    results.push(record);
    length += JSON.stringify(record).length + 1;
  }
  return { total: results.length * 7, page: 1, results };
}

/** The text payload of a kind, about `chars` characters. */
export function textPayload(kind: Exclude<PayloadKind, 'json'>, chars: number, seed: number): string {
  switch (kind) {
    case 'logs':
      return logs(chars, seed);
    case 'code':
      return code(chars, seed);
    case 'prose':
      return prose(chars, seed);
    case 'cjk':
      return cjk(chars, seed);
  }
}

/** Any payload as text (JSON serialised), for tokenizer-level measurements. */
export function payloadText(kind: PayloadKind, chars: number, seed: number): string {
  return kind === 'json' ? JSON.stringify(jsonRecords(chars, seed)) : textPayload(kind, chars, seed);
}
