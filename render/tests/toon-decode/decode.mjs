// Decodes TOON documents with the official implementation (@toon-format/toon, strict mode).
// Input on stdin: a JSON array of TOON texts. Output on stdout: a JSON array with, per text,
// {"ok": value} or {"error": message}. Used by render/tests/toon_decode.rs.
import { decode } from '@toon-format/toon';

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => { input += chunk; });
process.stdin.on('end', () => {
  const texts = JSON.parse(input);
  const out = texts.map((t) => {
    try {
      return { ok: decode(t, { strict: true }) };
    } catch (e) {
      return { error: String(e && e.message ? e.message : e) };
    }
  });
  process.stdout.write(JSON.stringify(out));
});
