// Writes Fixtures/RegexVectors.swift's vectors: random expressions in the subset URL rules use, random
// URL-like subjects, and what V8 answers. Run: node regex-vectors.js > vectors.tsv
let seed = 20240611;
function rand(n) { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed % n; }
function pick(a) { return a[rand(a.length)]; }
const lits = ['a','b','c','x','1','2','.','/',':','-','_','?','=','#','A','B','&','%'];
function atom(d) {
  const r = rand(d > 2 ? 8 : 13);
  switch (r) {
    case 0: case 1: case 2: { const c = pick(lits); return /[.?/\\*+()[\]{}|^$]/.test(c) ? (c === '/' ? pick(['/', '\\/']) : '\\' + c) : c; }
    case 3: return pick(['\\d','\\w','\\s','\\D','\\W','\\S']);
    case 4: return pick(['[a-c]','[^/]','[\\w.-]','[^a]','[.:]','[A-Z0-9]','[^\\/?#]','[-a]','[\\d-x]','[]','[^]']);
    case 5: return '.';
    case 6: return pick(['^','$','\\b','\\B']);
    case 7: return pick(['a','b','c','/','x']);
    case 8: return '(' + disj(d + 1) + ')';
    case 9: return '(?:' + disj(d + 1) + ')';
    case 10: return '(?=' + disj(d + 1) + ')';
    case 11: return '(?!' + disj(d + 1) + ')';
    default: return '(' + disj(d + 1) + ')';
  }
}
function quant(a) {
  if (/^(\^|\$|\\b|\\B)$/.test(a) || a.startsWith('(?=') || a.startsWith('(?!')) return a;
  const q = rand(10);
  const qs = ['*','+','?','{2}','{1,3}','{0,}','*?','+?','??','{1,2}?'];
  return q < 7 ? a : a + pick(qs);
}
function alt(d) { let n = 1 + rand(4); let s = ''; for (let i = 0; i < n; i++) s += quant(atom(d)); return s; }
function disj(d) { let s = alt(d); if (rand(4) === 0) s += '|' + alt(d); return s; }
const subjectChars = 'abcxABC12./:-_?=#&%';
function subject() { let n = rand(14); let s = ''; for (let i = 0; i < n; i++) s += subjectChars[rand(subjectChars.length)]; return s; }
const out = [];
const seen = new Set();
while (out.length < 4000) {
  const src = (rand(2) === 0 ? '^' : '') + disj(0) + (rand(3) === 0 ? '$' : '');
  if (seen.has(src)) continue; seen.add(src);
  let re;
  try { re = new RegExp(src, 'i'); } catch (e) { out.push(src + '\tINVALID\t'); continue; }
  const own = src.replace(/[\\^$()?:=!*+{}|\[\]]/g, '');
  for (let k = 0; k < 4; k++) {
    let s = subject();
    if (k >= 2) { s = ''; const n = rand(10); for (let i = 0; i < n; i++) s += own.length ? own[rand(own.length)] : 'a'; }
    out.push(src + '\t' + (re.test(s) ? 'MATCH' : 'NO') + '\t' + s);
  }
}
console.log(out.join('\n'));
