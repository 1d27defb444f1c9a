/**
 * Text that is hard on tokenizers and cutters, to test what the guard does with it: CJK prose
 * without spaces, emoji clusters (surrogate pairs, ZWJ sequences, flags, combining marks), a
 * run of hex digits without a space, and base64 of random bytes. Same (size, seed), same text.
 */
import { Buffer } from 'node:buffer';
import { SeededRandom } from './seeded-random.js';

/** The Han characters and punctuation `cjkText` is made of (a test can check every character against them). */
export const CJK_CHARACTERS =
  '的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处队南给色光门即保治北造百规热领七海口东导器压志世金增争济阶油思术极交受联什认六共权收证改清己美再采转更单风切打白教速花带安场身车例真务具万每目至达走积示议声报斗完类八离华名确才科张信马节话米整空元况今集温传土许步群广石记需段研界拉林律叫且究观越织装影算低持音众书布复容儿须际商非验连断深难近矿千周委素技备半办青省列习响约支般史感劳便团往酸历市克何除消构府称太准精值号率族维划选标写存候毛亲快效斯院查江型眼王按格养易置派层片始却专状育厂京识适属圆包火住调满县局照参红细引听该铁价严龙飞，。、：；';
const HAN = [...CJK_CHARACTERS.slice(0, -5)];
const CJK_PUNCTUATION = ['，', '，', '，', '。', '、', '：', '；'];

/** Chinese-like prose of exactly `chars` characters: runs of Han characters and CJK punctuation, no spaces. */
export function cjkText(chars: number, seed: number): string {
  const random = new SeededRandom(seed);
  const out: string[] = [];
  let length = 0;
  while (length < chars) {
    const run = 4 + random.int(18);
    for (let i = 0; i < run; i++) out.push(random.pick(HAN));
    out.push(random.pick(CJK_PUNCTUATION));
    if (random.unit() < 0.03) out.push(String(random.int(2025)));
    if (random.unit() < 0.05) out.push('\n');
    length += run + 1;
  }
  return out.join('').slice(0, chars);
}

/** The clusters `emojiText` is made of: astral emoji, a ZWJ sequence, a flag, letters with combining marks. */
export const EMOJI_PIECES: readonly string[] = [
  '😀',
  '🚀',
  '👩\u200d💻',
  '🇫🇷',
  'e\u0301',
  'n\u0303',
  'a\u030a\u0301',
  '𝔘',
  ' ',
];

/** Emoji clusters, at most `chars` UTF-16 units, never a cluster cut. */
export function emojiText(chars: number, seed: number): string {
  const random = new SeededRandom(seed);
  const out: string[] = [];
  for (let length = 0; ;) {
    const piece = random.pick(EMOJI_PIECES);
    if (length + piece.length > chars) return out.join('');
    out.push(piece);
    length += piece.length;
  }
}

/** Hex digits without a single space, exactly `chars` characters: the worst case for a BPE tokenizer. */
export function hexText(chars: number, seed: number): string {
  const random = new SeededRandom(seed);
  const out: string[] = [];
  for (let length = 0; length < chars; length += 8) out.push(random.next().toString(16).padStart(8, '0'));
  return out.join('').slice(0, chars);
}

/** Base64 of random bytes, exactly `chars` characters. */
export function base64Text(chars: number, seed: number): string {
  const random = new SeededRandom(seed);
  const bytes = Buffer.alloc(Math.ceil((Math.max(0, chars) * 3) / 4));
  for (let i = 0; i < bytes.length; i++) bytes[i] = random.int(256);
  return bytes.toString('base64').slice(0, Math.max(0, chars));
}
