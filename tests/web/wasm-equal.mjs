// wasm-equal.mjs — the WebAssembly build of the library (make web) rules as
// the CLI does, byte for byte. Node loads build/web/arbiter.js and
// core/serve/web/offline.js (the page's own back end) directly.
//
//   node tests/web/wasm-equal.mjs build/arbiter build/web/arbiter.js
//
// 1. Every example (examples/*.json) under every ruleset: the JSON Lines
//    the CLI writes for them (`arbiter rule --ruleset R FILE.jsonl`, one
//    ruling or error record a line) against the module's (arb_rule_batch
//    in both), byte for byte; and each example alone against `arbiter rule
//    --json` (which indents its text: compared as JSON, in order).
// 2. A batch of test scenarios: every walk through the questions of each
//    ruleset (each answer of each question, up to WALK_LIMIT scenarios a
//    ruleset, as a director could give them), byte for byte again.
// 3. The klaverjas hands and positions of examples/ scored as `arbiter
//    score --json` and `arbiter legal --json` score them.
// 4. Club plugins loaded from their text, as the page loads the file a
//    director picks: rulings, legal cards and scores under each as the CLI
//    gives them with --plugin (byte for byte for the rulings), a hostile
//    plugin's error and the rulings after it, a plugin that does not load
//    refused with the CLI's message and nothing changed, the plugin's own
//    question handed out as `arbiter serve --plugin` hands it out.
// 5. The scorer's desk: session sheets (each method), a klaverjas ranking
//    and PBN files scored as `arbiter session|ranking|pbn --json` score
//    them — the module's text is the CLI's without its indentation, byte
//    for byte — the PBN export as `arbiter pbn --export` writes it, and a
//    bad sheet's and a bad file's errors as the CLI writes them.
// The module reads the rule files from the same path as the CLI, so that
// even a path in a message (a situation declared out of scope) is the same.
// Ends with "N passed, N failed". ONLY=plugins runs part 4 alone, ONLY=scores
// part 5 and the page's back end against `arbiter serve`.
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const require = createRequire(import.meta.url);
const ARBITER = process.argv[2] || 'build/arbiter';
const MODULE = resolve(process.argv[3] || 'build/web/arbiter.js');
const RULESETS = resolve('rulesets');
const WALK_LIMIT = Number(process.env.WALK_LIMIT || 1500);
const env = { ...process.env, ARBITER_RULESETS: RULESETS, ARBITER_CACHE: 'off' };

let passed = 0, failed = 0;
function check(name, ok, detail) {
  if (ok) { passed++; console.log('ok ' + name); } else { failed++; console.log('FAIL ' + name + (detail ? ': ' + detail : '')); }
}

function cli(args, input) {
  const r = spawnSync(ARBITER, args, { input, encoding: 'utf8', env, maxBuffer: 1 << 28 });
  return r.stdout;
}

/* The CLI's run in full: its output, its errors and its exit status. */
function cliRun(args, input) {
  const r = spawnSync(ARBITER, args, { input, encoding: 'utf8', env, maxBuffer: 1 << 28 });
  return { out: r.stdout, err: r.stderr, status: r.status };
}

/* A JSON text without the whitespace between its tokens: the CLI's --json
 * (indented by two) as the library writes it. */
function unindented(text) {
  let out = '', inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i];
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (!/\s/.test(c)) {
      out += c;
    }
  }
  return out;
}

/* Where two texts first differ, for a failure's message. */
function firstDifference(a, b) {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  const line = a.slice(0, i).split('\n').length;
  return `line ${line}: CLI «${a.slice(i, i + 80)}» wasm «${b.slice(i, i + 80)}»`;
}

/* The module with the rule files copied to RULESETS in its file system. */
async function loadModule() {
  const offline = require(resolve('core/serve/web/offline.js'));
  const factory = require(MODULE);
  const copyTree = (FS, from, to) => {
    FS.mkdirTree(to);
    for (const name of FS.readdir(from)) {
      if (name === '.' || name === '..') continue;
      const src = from + '/' + name, dst = to + '/' + name;
      if (FS.isDir(FS.stat(src).mode)) copyTree(FS, src, dst);
      else FS.writeFile(dst, FS.readFile(src));
    }
  };
  /* the module's bytes given, not fetched (Node's fetch takes no file path) */
  const wasmBinary = readFileSync(MODULE.replace(/\.js$/, '.wasm'));
  const names = await offline.start({ factory, module: { wasmBinary }, dir: RULESETS,
    files: (FS) => copyTree(FS, '/rulesets', RULESETS) });
  return { offline, names };
}

/* The scenarios of a walk through the questions: from {}, each answer of
 * the question asked next, breadth first. A free answer (a call, a number)
 * gets a few typical values. */
function walk(offline, name, limit) {
  const details = offline.request('api/rulesets/' + name).body;
  const free = (q) => (q.type === 'call' ? ['P', 'X', '2C', '3NT', '1H'] : q.type === 'int' ? [q.min ?? 0, q.max ?? 1, 1] : ['ja']);
  const out = [];
  const queue = [{}];
  while (queue.length && out.length < limit) {
    const s = queue.shift();
    out.push(s);
    const j = JSON.parse(offline.raw.next(name, JSON.stringify(s)).text);
    if (j.status !== 'needs' || !j.question) continue;
    const q = j.question;
    const values = q.choices.length ? q.choices.map((c) => c.value) : free(q);
    for (const v of values) queue.push({ ...s, [q.name]: v });
  }
  return { scenarios: out, facts: details.facts.length };
}

function batchEqual(offline, label, name, scenarios) {
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-wasm-'));
  try {
    /* two lines at least, so that the CLI reads the file as JSON Lines */
    const lines = scenarios.map((s) => JSON.stringify(s));
    if (lines.length < 2) lines.push('{}');
    const jsonl = lines.join('\n') + '\n';
    const file = join(dir, 'cases.jsonl');
    writeFileSync(file, jsonl);
    const fromCli = cli(['rule', '--ruleset', name, file]);
    const fromWasm = offline.raw.batch(name, jsonl).text;
    const ruled = (fromCli.match(/"status":"ruling"/g) || []).length;
    check(`${label} under ${name}: ${lines.length} lines (${ruled} rulings) byte for byte`, fromCli === fromWasm && fromCli.length > 0,
      fromCli === fromWasm ? 'no output' : firstDifference(fromCli, fromWasm));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const inOrder = (text) => JSON.stringify(JSON.parse(text));

/* `arbiter serve` on a loopback port, with every ruleset (as the module
 * has), or with the arguments given (run in cwd). */
function startServer(args = [], cwd = undefined) {
  const server = spawn(resolve(ARBITER), ['serve', '--listen', '127.0.0.1:0', ...args], { env, cwd, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('the server did not start in 120 s')), 120000);
    server.stdout.on('data', (chunk) => {
      out += chunk;
      const m = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(out);
      if (m) { clearTimeout(timer); resolve({ server, base: `http://127.0.0.1:${m[1]}/` }); }
    });
    server.on('exit', (code) => { clearTimeout(timer); reject(new Error('the server exited: ' + code)); });
  });
}

/* The page's back end (offline.js over the module) answers each request,
 * good or bad, as the server does: the same status, the same JSON. */
async function sameAsServer(offline, names, games) {
  const { server, base } = await startServer();
  try {
    const kj = names.find((n) => games.find((r) => r.name === n).game === 'klaverjas');
    const hand = JSON.parse(readFileSync('examples/klaverjas-hand.json', 'utf8'));
    const ib = { auction: 'N: 1S 1H', irregularity: 'insufficient_bid', replacement: 'bid', replacement_call: '3SA',
      call_artificial: false, replacement_comparable: false };
    const requests = [
      ['api/rulesets'], ['api/rulesets/bridge-2017'], ['api/rulesets/no-such'],
      ['api/next', { ruleset: 'bridge-2017', scenario: {} }],
      ['api/next', { ruleset: 'bridge-2017', scenario: ib }],
      ['api/next', { ruleset: 'bridge-2017', scenario: { ...ib, replacement_call: 'P' } }],
      ['api/next', { ruleset: 'bridge-2017', scenario: { irregularity: 'no_such_thing' } }],
      ['api/next', { ruleset: 'no-such', scenario: {} }], ['api/next', { ruleset: 'bridge-2017' }],
      ['api/next', { ruleset: 'bridge-2017', scenario: {}, extra: 1 }], ['api/next', { scenario: {} }],
      ['api/rule', { ruleset: 'bridge-2017', scenario: ib }], ['api/rule', { ruleset: 'bridge-2017', scenario: { irregularity: 'insufficient_bid' } }],
      ['api/compare', { rulesets: names.filter((n) => n !== kj), scenario: ib }],
      ['api/compare', { rulesets: ['bridge-2017'], scenario: ib }], ['api/compare', { rulesets: ['bridge-2017', 'no-such'], scenario: ib }],
      ['api/score', { ruleset: 'bridge-2017', contract: '4SX+1', vulnerable: true }],
      ['api/score', { ruleset: 'bridge-2017', contract: '4SX+1' }], ['api/score', { ruleset: 'bridge-2017', contract: '9Z' }],
      ['api/score', { ruleset: 'bridge-2017', contract: '3NT=', vulnerable: 'yes' }],
      ['api/matchpoints', { ruleset: 'bridge-2017', csv: readFileSync('examples/board-1.csv', 'utf8') }],
      ['api/matchpoints', { ruleset: 'bridge-2017', csv: 'board,pair,score\n1,1,zeshonderd\n' }],
      ['api/session', { ruleset: 'bridge-2017', csv: readFileSync('examples/session.csv', 'utf8') }],
      ['api/session', { ruleset: 'bridge-2017', csv: readFileSync('examples/session-short-board.csv', 'utf8'), method: 'butler' }],
      ['api/session', { ruleset: 'bridge-2017', csv: 'board,ns,ew,score\n1,1,4,zes\n' }],
      ['api/session', { ruleset: 'bridge-2017', csv: readFileSync('examples/session.csv', 'utf8'), method: 'swiss' }],
      ['api/session', { ruleset: 'bridge-2017', csv: 'x', method: 7 }], ['api/session', { ruleset: 'bridge-2017' }],
      ['api/session', { ruleset: 'bridge-2017', csv: '', sheet: 1 }],
      ['api/pbn', { ruleset: 'bridge-2017', pbn: readFileSync('tests/pbn/event.pbn', 'utf8') }],
      ['api/pbn', { ruleset: 'bridge-2017', pbn: readFileSync('tests/pbn/mistakes.pbn', 'utf8') }],
      ['api/pbn', { pbn: readFileSync('tests/pbn/event.pbn', 'utf8'), export: true }],
      ['api/pbn', { pbn: readFileSync('tests/pbn/mistakes.pbn', 'utf8'), export: true }],
      ['api/pbn', { pbn: 'x', export: 'yes' }], ['api/pbn', { pbn: '[Board "1"]\n' }], ['api/pbn', { ruleset: 'no-such', pbn: '' }],
      ['api/pbn', { ruleset: 'bridge-2017', pbn: 1 }], ['api/pbn', { ruleset: 'bridge-2017', pbn: '', csv: '' }],
      ['api/ranking', { ruleset: 'bridge-2017', csv: '' }], ['api/ranking', { ruleset: 'no-such', csv: '' }],
      /* the answers in CSV, the ScoreTables' ranking and the TotalScoreTable check */
      ['api/session', { ruleset: 'bridge-2017', csv: readFileSync('examples/session.csv', 'utf8'), format: 'csv' }],
      ['api/session', { ruleset: 'bridge-2017', csv: readFileSync('examples/session.csv', 'utf8'), format: 'csv', boards: true, method: 'cross' }],
      ['api/session', { ruleset: 'bridge-2017', csv: '', format: 'xml' }], ['api/session', { ruleset: 'bridge-2017', csv: '', boards: 1 }],
      ['api/matchpoints', { ruleset: 'bridge-2017', csv: readFileSync('examples/board-adjusted.csv', 'utf8'), format: 'csv' }],
      ['api/pbn', { ruleset: 'bridge-2017', pbn: readFileSync('tests/pbn/event.pbn', 'utf8'), format: 'csv' }],
      ['api/pbn', { ruleset: 'bridge-2017', pbn: readFileSync('tests/pbn/event.pbn', 'utf8'), ranking: true }],
      ['api/pbn', { ruleset: 'bridge-2017', pbn: readFileSync('tests/pbn/event.pbn', 'utf8'), ranking: true, boards: true, format: 'csv' }],
      ['api/pbn', { ruleset: 'bridge-2017', pbn: readFileSync('tests/pbn/event.pbn', 'utf8'), totals: true }],
      ['api/pbn', { ruleset: 'bridge-2017', pbn: readFileSync('tests/pbn/event.pbn', 'utf8'), totals: true, format: 'csv' }],
      ['api/pbn', { ruleset: 'bridge-2017', pbn: readFileSync('tests/pbn/mistakes.pbn', 'utf8'), format: 'csv' }],
      ['api/pbn', { ruleset: 'bridge-2017', pbn: readFileSync('tests/pbn/standard-example.pbn', 'utf8'), ranking: true }],
      ['api/pbn', { ruleset: 'bridge-2017', pbn: '', ranking: true, totals: true }], ['api/pbn', { ruleset: 'bridge-2017', pbn: '', totals: 'yes' }],
      ['api/graph?ruleset=bridge-2017&article=27'], ['api/graph?ruleset=bridge-2017&article=999'], ['api/graph?ruleset=bridge-2017'],
    ];
    if (kj) requests.push(['api/ranking', { ruleset: kj, csv: readFileSync('examples/klaverjas-ranking.csv', 'utf8') }],
      ['api/ranking', { ruleset: kj, csv: 'board,pair,score\n1,A,honderd\n' }]);
    if (kj) requests.push(['api/klaverjas', { ruleset: kj, hand }], ['api/klaverjas', { ruleset: 'bridge-2017', hand }],
      ['api/score', { ruleset: kj, contract: '4SX+1', vulnerable: true }],
      ['api/klaverjas', { ruleset: kj, hand: { ...hand, tricks: ['E:SA SA SA SA'] } }]);
    const differ = [];
    for (const [path, body] of requests) {
      const res = await fetch(base + path, body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) });
      const fromServer = { status: res.status, body: await res.json() };
      const fromPage = offline.request(path, body);
      if (fromServer.status !== fromPage.status || JSON.stringify(fromServer.body) !== JSON.stringify(fromPage.body))
        differ.push(`${path} ${JSON.stringify(body || '').slice(0, 60)}: server ${fromServer.status} ${JSON.stringify(fromServer.body).slice(0, 160)}, page ${fromPage.status} ${JSON.stringify(fromPage.body).slice(0, 160)}`);
    }
    check(`${requests.length} requests, good and bad: the page's back end answers as \`arbiter serve\` does`, differ.length === 0, differ.join('\n    '));
  } finally {
    server.kill('SIGTERM');
  }
}

/* ---- club plugins ---- */

/* The CLI run in a plugin's folder, so that `--plugin FILE` names the file
 * as the page does (by its name): the ruling's record is then the same. */
function cliIn(dir, args, input) {
  return spawnSync(resolve(ARBITER), args, { cwd: dir, input, encoding: 'utf8', env, maxBuffer: 1 << 28 });
}

function scenarioText(file) {
  const j = JSON.parse(readFileSync(file, 'utf8'));
  delete j._comment;
  return JSON.stringify(j);
}

/* A plugin loaded as the page loads it: its text, under its file's name. */
function loadPlugin(offline, dir, file, ruleset) {
  return offline.plugins.add(file, readFileSync(join(dir, file), 'utf8'), ruleset);
}

/* Rulings on lines (JSON texts) with a plugin: the module's batch against
 * `arbiter rule --ruleset NAME --plugin FILE CASES.jsonl`, byte for byte. */
function pluginBatchEqual(offline, label, dir, file, name, lines) {
  const tmp = mkdtempSync(join(tmpdir(), 'arbiter-wasm-'));
  try {
    const jsonl = lines.join('\n') + '\n';
    const cases = join(tmp, 'cases.jsonl');
    writeFileSync(cases, jsonl);
    const fromCli = cliIn(dir, ['rule', '--ruleset', name, '--plugin', file, cases]).stdout;
    const fromWasm = offline.raw.batch(name, jsonl).text;
    check(`${label}: ${lines.length} lines under ${name} with ${file}, byte for byte as \`arbiter rule --plugin\``,
      fromCli === fromWasm && fromCli.includes('"plugin_files"'), fromCli === fromWasm ? 'no plugin in the records' : firstDifference(fromCli, fromWasm));
    return fromWasm;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

async function withPlugins(offline, names) {
  const CLUBS = resolve('plugins/clubs'), TESTS = resolve('tests/plugins');
  const examples = readdirSync('examples').filter((f) => f.endsWith('.json')).sort().map((f) => join('examples', f));
  const bridgeLines = examples.filter((f) => !f.includes('klaverjas')).map(scenarioText);
  const kjLines = examples.filter((f) => f.includes('klaverjas')).map(scenarioText);
  const revoke = scenarioText('tests/plugins/revoke-64A1.json');
  const club = scenarioText('tests/plugins/revoke-64A1-club.json');
  const undecided = JSON.stringify((({ beginners_drive, ...rest }) => rest)(JSON.parse(club)));
  const none = JSON.stringify(offline.plugins.list());

  /* the beginners' drive (bridge-2017): one trick where 64A1 takes two */
  const beginners = 'bridge-beginners-revoke.lua';
  const added = loadPlugin(offline, CLUBS, beginners, 'bridge-2017');
  check(`${beginners} loads, for bridge-2017 only`, added.ok && JSON.stringify(added.plugins.map((p) => p.rulesets)) === '[["bridge-2017"]]',
    JSON.stringify(added).slice(0, 300));
  const batch = pluginBatchEqual(offline, 'the examples and the drive', CLUBS, beginners, 'bridge-2017', [revoke, club, undecided, ...bridgeLines]);
  check('the drive changes the ruling: one trick transferred', /"transfer_tricks","args":\{"n":1\}/.test(batch.split('\n')[0]), batch.split('\n')[0].slice(0, 200));
  const alone = cliIn(CLUBS, ['rule', '--ruleset', 'bridge-2017', '--plugin', beginners, '--json', '-'], revoke).stdout;
  check('the drive alone as `arbiter rule --plugin --json`', alone && inOrder(alone) === offline.raw.rule('bridge-2017', revoke).text);
  const record = JSON.parse(offline.raw.rule('bridge-2017', revoke).text).plugin_files;
  check("the ruling's record names the plugin's file and hash", record && record[0].file === beginners && record[0].hash === added.plugins[0].hash,
    JSON.stringify(record));
  for (const name of names.filter((n) => n !== 'bridge-2017')) {
    const r = offline.raw.batch(name, [revoke, ...bridgeLines].join('\n') + '\n').text;
    check(`${name}, which does not take the drive, rules without it`, r && !r.includes('plugin_files'));
  }

  /* the plugin's own question, as `arbiter serve --plugin` hands it out */
  const { server, base } = await startServer(['--ruleset', 'bridge-2017', '--plugin', beginners], CLUBS);
  try {
    const differ = [];
    const requests = [[undecided], [club], [revoke], [JSON.stringify({ ...JSON.parse(undecided), beginners_drive: 'ja' })], ['{}']];
    for (const [text] of requests) {
      for (const path of ['api/next', 'api/rule']) {
        const body = { ruleset: 'bridge-2017', scenario: JSON.parse(text) };
        const res = await fetch(base + path, { method: 'POST', body: JSON.stringify(body) });
        const fromServer = { status: res.status, body: await res.json() };
        const fromPage = offline.request(path, body);
        if (fromServer.status !== fromPage.status || JSON.stringify(fromServer.body) !== JSON.stringify(fromPage.body))
          differ.push(`${path} ${text.slice(0, 60)}: server ${fromServer.status} ${JSON.stringify(fromServer.body).slice(0, 160)}, page ${fromPage.status} ${JSON.stringify(fromPage.body).slice(0, 160)}`);
      }
    }
    const asked = offline.request('api/next', { ruleset: 'bridge-2017', scenario: JSON.parse(undecided) }).body.question;
    check('the drive\'s own question is handed out (from_plugin), as by `arbiter serve --plugin`',
      differ.length === 0 && asked && asked.from_plugin && asked.name === 'beginners_drive', differ.join('\n    ') || JSON.stringify(asked));
  } finally {
    server.kill('SIGTERM');
  }

  /* a plugin that does not load: the CLI's message, and nothing changed */
  const tmp = mkdtempSync(join(tmpdir(), 'arbiter-wasm-'));
  try {
    for (const [file, text] of [['loop.lua', 'while true do end\n'], ['broken.lua', 'return { api = 1, name = "x",\n  cite = '],
      ['rotterdams-klaverjassen.lua', readFileSync(join(CLUBS, 'rotterdams-klaverjassen.lua'), 'utf8')]]) {
      writeFileSync(join(tmp, file), text);
      const before = JSON.stringify(offline.plugins.list());
      const r = offline.plugins.add(file, text, 'bridge-2017');
      if (file.startsWith('rotterdams')) { /* it loads: for klaverjas only */
        check(`${file} loads for klaverjas-nkf-1976 only; bridge-2017 says why not as the CLI does`, r.ok &&
          JSON.stringify(r.plugins[1].rulesets) === '["klaverjas-nkf-1976"]' &&
          r.plugins[1].refused['bridge-2017'] === cliIn(tmp, ['rule', '--ruleset', 'bridge-2017', '--plugin', file, '-'], revoke).stderr.trim(),
          JSON.stringify(r).slice(0, 300));
        offline.plugins.remove(file);
        continue;
      }
      const fromCli = cliIn(tmp, ['rule', '--ruleset', 'bridge-2017', '--plugin', file, '-'], revoke);
      check(`${file} is refused with the CLI's message (${fromCli.stderr.trim()}), and nothing changes`,
        !r.ok && fromCli.status === 2 && r.error === fromCli.stderr.trim() && JSON.stringify(offline.plugins.list()) === before,
        `page «${r.error}»`);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  offline.plugins.remove(beginners);
  check('removed: no plugins, and the ruling is the law\'s again', JSON.stringify(offline.plugins.list()) === none &&
    inOrder(cli(['rule', '--ruleset', 'bridge-2017', '--json', '-'], undecided) || 'null') === offline.raw.rule('bridge-2017', undecided).text);

  /* Rotterdam (klaverjas-nkf-1976): the legal cards and the hands scored */
  const rotterdam = 'rotterdams-klaverjassen.lua';
  const kj = names.find((n) => n === 'klaverjas-nkf-1976');
  if (kj && loadPlugin(offline, CLUBS, rotterdam, 'bridge-2017').ok) {
    const position = resolve('tests/plugins/klaverjas-partner-holds.json');
    const legal = cliIn(CLUBS, ['legal', '--ruleset', kj, '--plugin', rotterdam, '--json', position]).stdout;
    const wasm = offline.raw.legal(kj, readFileSync(position, 'utf8')).text;
    check(`Rotterdam: the legal cards of a trick with partner as \`arbiter legal --plugin --json\``,
      legal.includes('Rotterdams art. 1') && wasm && inOrder(legal) === inOrder(wasm), `CLI ${legal.slice(0, 120)} wasm ${String(wasm).slice(0, 120)}`);
    for (const e of examples.filter((f) => /klaverjas-(hand|revoke|not-trumped)/.test(f))) {
      const fromCli = cliIn(CLUBS, ['score', '--ruleset', kj, '--plugin', rotterdam, '--json', resolve(e)]).stdout;
      const fromWasm = offline.raw.klaverjas(kj, readFileSync(e, 'utf8')).text;
      check(`Rotterdam: ${e} scored as \`arbiter score --plugin --json\``, fromCli.trim() && fromWasm && inOrder(fromCli) === inOrder(fromWasm),
        `CLI ${fromCli.slice(0, 120)} wasm ${String(fromWasm).slice(0, 120)}`);
    }
    pluginBatchEqual(offline, 'the klaverjas examples', CLUBS, rotterdam, kj, kjLines);
    offline.plugins.remove(rotterdam);
  } else {
    check(`${rotterdam} loads for klaverjas-nkf-1976`, !kj, 'not loaded');
  }

  /* a hostile plugin: an endless loop on an insufficient bid, stopped by
   * the sandbox; the lines after it ruled right */
  const hostile = 'hostile-pcall.lua';
  const h = loadPlugin(offline, TESTS, hostile, 'bridge-2017');
  check(`${hostile} loads (for every ruleset: it has no override)`, h.ok && h.plugins[0].rulesets.length === names.length, JSON.stringify(h).slice(0, 200));
  const started = Date.now();
  const out = pluginBatchEqual(offline, 'an endless loop', TESTS, hostile, 'bridge-2017', bridgeLines);
  const stopped = out.split('\n').filter((l) => l.includes('instruction budget') || l.includes('time limit')).length;
  check(`the endless loop stopped in ${stopped} lines within ${Date.now() - started} ms, the other lines ruled`,
    stopped > 0 && (out.match(/"status":"ruling"/g) || []).length > 0);
  offline.plugins.remove(hostile);
}

/* ---- the scorer's desk ---- */

function scorerDesk(offline, names, games) {
  const same = (label, fromCli, wasm) => check(label, fromCli.status === 0 && wasm.status === 0 && wasm.text && unindented(fromCli.out) === wasm.text,
    fromCli.status !== 0 ? `the CLI exited with ${fromCli.status}: ${fromCli.err.slice(0, 160)}`
      : wasm.status !== 0 ? `wasm: ${wasm.error}` : firstDifference(unindented(fromCli.out), wasm.text || ''));
  const sheets = ['examples/session.csv', 'examples/session-semicolon.csv', 'examples/session-short-board.csv'];
  same('examples/session-total.csv (total) as `arbiter session --json`, byte for byte',
    cliRun(['session', '--ruleset', 'bridge-2017', '--json', '--method', 'total', 'examples/session-total.csv']),
    offline.raw.session('bridge-2017', readFileSync('examples/session-total.csv', 'utf8'), 'total'));
  for (const sheet of sheets) {
    for (const method of [null, 'butler', 'cross']) {
      const args = ['session', '--ruleset', 'bridge-2017', '--json', ...(method ? ['--method', method] : []), sheet];
      same(`${sheet}${method ? ' (' + method + ')' : ''} as \`arbiter session --json\`, byte for byte`,
        cliRun(args), offline.raw.session('bridge-2017', readFileSync(sheet, 'utf8'), method));
    }
  }
  /* the CSV a download gives: the glue's arb_csv against the CLI's */
  for (const [form, args, json] of [
    ['session', ['session', '--ruleset', 'bridge-2017', 'examples/session.csv'], () => offline.raw.session('bridge-2017', readFileSync('examples/session.csv', 'utf8'))],
    ['session-boards', ['session', '--ruleset', 'bridge-2017', '--boards', '--method', 'cross', 'examples/session-semicolon.csv'],
      () => offline.raw.session('bridge-2017', readFileSync('examples/session-semicolon.csv', 'utf8'), 'cross')],
    ['matchpoints', ['matchpoints', '--ruleset', 'bridge-2017', 'examples/board-adjusted.csv'], () => offline.raw.matchpoints('bridge-2017', readFileSync('examples/board-adjusted.csv', 'utf8'))],
  ]) {
    const fromCli = cliRun(args), answer = json(), wasm = answer.status === 0 ? offline.raw.csv(form, answer.text) : answer;
    check(`\`arbiter ${args.join(' ')}\`: the module's CSV (${form}), byte for byte`,
      fromCli.status === 0 && wasm.status === 0 && fromCli.out === wasm.text, wasm.status ? wasm.error : firstDifference(fromCli.out, wasm.text || ''));
  }
  if (names.includes('bridge-1963'))
    same('examples/session-short-board.csv under bridge-1963 (its short board stands as compared) as `arbiter session --json`',
      cliRun(['session', '--ruleset', 'bridge-1963', '--json', 'examples/session-short-board.csv']),
      offline.raw.session('bridge-1963', readFileSync('examples/session-short-board.csv', 'utf8')));
  const kj = names.filter((n) => games.find((r) => r.name === n).game === 'klaverjas');
  for (const name of kj)
    same(`examples/klaverjas-ranking.csv ranked under ${name} as \`arbiter ranking --json\`, byte for byte`,
      cliRun(['ranking', '--ruleset', name, '--json', 'examples/klaverjas-ranking.csv']),
      offline.raw.ranking(name, readFileSync('examples/klaverjas-ranking.csv', 'utf8')));
  for (const file of ['tests/pbn/event.pbn', 'tests/pbn/session.pbn', 'tests/pbn/standard-example.pbn']) {
    const text = readFileSync(file, 'utf8');
    same(`${file} scored as \`arbiter pbn --ruleset bridge-2017 --json\`, byte for byte`,
      cliRun(['pbn', '--ruleset', 'bridge-2017', '--json', file]), offline.raw.pbn('bridge-2017', text, file));
    const csv = cliRun(['pbn', '--ruleset', 'bridge-2017', file]), wasmJson = offline.raw.pbn('bridge-2017', text, file);
    const wasmCsv = wasmJson.text ? offline.raw.csv('pbn', wasmJson.text) : wasmJson;
    check(`${file} scored as \`arbiter pbn --ruleset bridge-2017\` writes its CSV, byte for byte`,
      csv.out === (wasmCsv.text || ''), wasmCsv.status ? wasmCsv.error : firstDifference(csv.out, wasmCsv.text || ''));
    if (file === 'tests/pbn/event.pbn') { /* the one with ScoreTables and a TotalScoreTable */
      same(`${file}'s ScoreTables ranked as \`arbiter pbn --ranking --json\`, byte for byte`,
        cliRun(['pbn', '--ruleset', 'bridge-2017', '--ranking', '--json', file]), offline.raw.pbnSession('bridge-2017', text, file));
      same(`${file}'s TotalScoreTable as \`arbiter pbn --totals --json\`, byte for byte`,
        cliRun(['pbn', '--ruleset', 'bridge-2017', '--totals', '--json', file]), offline.raw.pbnTotals('bridge-2017', text, file));
    }
    const exported = cliRun(['pbn', '--export', file]), wasm = offline.raw.pbnExport(text, file);
    check(`${file} in the export format as \`arbiter pbn --export\` writes it, byte for byte`,
      exported.status === 0 && wasm.status === 0 && exported.out === wasm.text, wasm.status ? wasm.error : firstDifference(exported.out, wasm.text || ''));
  }
  /* a ScoreTable whose own figures differ: the disagreements as the CLI lists them */
  const event = readFileSync('tests/pbn/event.pbn', 'utf8').replace(/"140"/, '"170"');
  const differs = cliRun(['pbn', '--ruleset', 'bridge-2017', '--json', '-'], event);
  same('a ScoreTable with a wrong Score_NS: its disagreements as `arbiter pbn --json` gives them',
    { ...differs, status: differs.out.includes('"Score_NS"') ? differs.status : -1 }, offline.raw.pbn('bridge-2017', event, '-'));

  /* bad input: the error the CLI writes, and no answer. The module's message
   * begins with where in the sheet ("line 3, column 9: "); the CLI puts
   * that before "error:" as file:line:column. */
  const unplaced = (error) => error.replace(/^line \d+(, column \d+)?: /, '');
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-desk-'));
  try {
    const bad = join(dir, 'bad.csv');
    writeFileSync(bad, 'board,ns,ew,score\n1,1,4,420\n1,2,5,zeshonderd\n');
    const fromCli = cliRun(['session', '--ruleset', 'bridge-2017', '--json', bad]);
    const wasm = offline.raw.session('bridge-2017', readFileSync(bad, 'utf8'));
    check("a bad sheet: the module's error is the CLI's (with the line), status 2", fromCli.status === 2 && wasm.status === 2 && !wasm.text &&
      fromCli.err.startsWith(`${bad}:3:`) && fromCli.err.includes(`: error: ${unplaced(wasm.error)}\n`) && /line 3/.test(wasm.error), `CLI ${fromCli.status} «${fromCli.err}» wasm ${wasm.status} «${wasm.error}»`);
    const badRanking = cliRun(['ranking', '--ruleset', kj[0] || 'bridge-2017', '--json', bad]);
    const wasmRanking = offline.raw.ranking(kj[0] || 'bridge-2017', readFileSync(bad, 'utf8'));
    check("a bad ranking sheet: the module's error is the CLI's, status 2", badRanking.status === 2 && wasmRanking.status === 2 &&
      badRanking.err.startsWith(`${bad}:`) && badRanking.err.includes(`: error: ${unplaced(wasmRanking.error)}\n`), `CLI ${badRanking.status} «${badRanking.err}» wasm ${wasmRanking.status} «${wasmRanking.error}»`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const mistakes = 'tests/pbn/mistakes.pbn', text = readFileSync(mistakes, 'utf8');
  const withLine = (err) => (err.endsWith('\n') ? err : err + '\n');
  for (const [label, args, wasm] of [
    ['scored', ['pbn', '--ruleset', 'bridge-2017', '--json', mistakes], offline.raw.pbn('bridge-2017', text, mistakes)],
    ['exported', ['pbn', '--export', mistakes], offline.raw.pbnExport(text, mistakes)]]) {
    const fromCli = cliRun(args);
    /* scored, the games read all the same come with the mistakes, as the CLI prints both */
    const sameText = label === 'scored' ? wasm.text !== null && unindented(fromCli.out) === unindented(wasm.text) : !wasm.text;
    check(`a PBN file with mistakes ${label}: every mistake with its line as the CLI writes them, status 2${label === 'scored' ? ', and the games read' : ''}`,
      fromCli.status === 2 && wasm.status === 2 && sameText && fromCli.err === withLine(wasm.error) && wasm.error.includes(mistakes + ':4:'),
      `CLI ${fromCli.status} «${fromCli.err.slice(0, 200)}» wasm ${wasm.status} «${String(wasm.error).slice(0, 200)}» text ${String(wasm.text).slice(0, 100)}`);
  }
}

async function main() {
  const started = Date.now();
  const { offline, names } = await loadModule();
  console.log(`note: the module compiled ${names.length} rulesets in ${Date.now() - started} ms`);
  if (process.env.ONLY === 'plugins') { /* a narrow run, while working on them */
    await withPlugins(offline, names);
    console.log(`${passed} passed, ${failed} failed`);
    return;
  }
  if (process.env.ONLY === 'scores') { /* and the page's back end against the server's */
    const games = offline.request('api/rulesets').body.rulesets;
    scorerDesk(offline, names, games);
    await sameAsServer(offline, names, games);
    console.log(`${passed} passed, ${failed} failed`);
    process.exitCode = failed ? 1 : 0;
    return;
  }
  const served = cli(['rulesets']).split('\n').filter(Boolean).map((l) => l.split(/\s+/)[0]);
  check('the module compiles the rulesets the CLI lists', JSON.stringify(names) === JSON.stringify(served),
    `wasm ${names.join(' ')}, CLI ${served.join(' ')}`);

  const examples = readdirSync('examples').filter((f) => f.endsWith('.json')).sort()
    .map((f) => ({ file: join('examples', f), json: JSON.parse(readFileSync(join('examples', f), 'utf8')) }));
  const positions = examples.filter((e) => e.json.trick !== undefined && e.json.hand !== undefined);
  const hands = examples.filter((e) => Array.isArray(e.json.tricks) || e.json.roem_claimed !== undefined);
  const scenarios = examples.filter((e) => !positions.includes(e) && !hands.includes(e));

  for (const name of names) {
    batchEqual(offline, `${examples.length} examples`, name, examples.map((e) => e.json));
    let alone = 0, differ = [];
    for (const e of scenarios) {
      const r = spawnSync(ARBITER, ['rule', '--ruleset', name, '--json', e.file], { encoding: 'utf8', env });
      if (!r.stdout.trim()) continue; /* a scenario the ruleset cannot read: compared in the batch */
      alone++;
      const wasm = offline.raw.rule(name, readFileSync(e.file, 'utf8')).text;
      if (inOrder(r.stdout) !== inOrder(wasm)) differ.push(e.file);
    }
    check(`${alone} examples alone under ${name}: the same ruling as \`arbiter rule --json\``, differ.length === 0, differ.join(', '));
  }

  for (const name of names) {
    const { scenarios: walked } = walk(offline, name, WALK_LIMIT);
    batchEqual(offline, `a walk through the questions (${walked.length} scenarios)`, name, walked);
  }

  const games = offline.request('api/rulesets').body.rulesets;
  const kj = names.filter((n) => games.find((r) => r.name === n).game === 'klaverjas');
  for (const name of kj) {
    for (const e of hands) {
      const fromCli = cli(['score', '--ruleset', name, '--json', e.file]);
      const wasm = offline.raw.klaverjas(name, readFileSync(e.file, 'utf8')).text;
      check(`${e.file} scored under ${name} as \`arbiter score --json\``, fromCli.trim() && wasm && inOrder(fromCli) === inOrder(wasm),
        `CLI ${fromCli.slice(0, 120)} wasm ${String(wasm).slice(0, 120)}`);
    }
    for (const e of positions) {
      const fromCli = cli(['legal', '--ruleset', name, '--json', e.file]);
      const wasm = offline.raw.legal(name, readFileSync(e.file, 'utf8')).text;
      check(`${e.file}: the legal cards under ${name} as \`arbiter legal --json\``, fromCli.trim() && wasm && inOrder(fromCli) === inOrder(wasm),
        `CLI ${fromCli.slice(0, 120)} wasm ${String(wasm).slice(0, 120)}`);
    }
  }
  for (const [contract, vul] of [['4SX+1', 1], ['3NT-2', 0], ['6C=', 1], ['PASS', 0], ['7NTXX=', 1]]) {
    const fromCli = cli(['score', '--ruleset', 'bridge-2017', vul ? '--vul' : '--nonvul', '--json', contract]);
    const wasm = offline.raw.score('bridge-2017', contract, vul).text;
    check(`${contract}${vul ? ' vulnerable' : ''} scored as \`arbiter score --json\``, fromCli.trim() && wasm && inOrder(fromCli) === inOrder(wasm),
      `CLI ${fromCli.slice(0, 120)} wasm ${String(wasm).slice(0, 120)}`);
  }
  for (const sheet of ['examples/board-1.csv', 'examples/klaverjas-board.csv']) {
    const fromCli = cli(['matchpoints', '--ruleset', 'bridge-2017', '--json', sheet]);
    const wasm = offline.raw.matchpoints('bridge-2017', readFileSync(sheet, 'utf8')).text;
    check(`${sheet} matchpointed as \`arbiter matchpoints --json\``, fromCli.trim() && wasm && inOrder(fromCli) === inOrder(wasm),
      `CLI ${fromCli.slice(0, 120)} wasm ${String(wasm).slice(0, 120)}`);
  }
  const bridge = names.filter((n) => games.find((r) => r.name === n).game === 'bridge');
  if (bridge.length >= 2) {
    for (const e of scenarios.filter((x) => !x.file.includes('klaverjas'))) {
      const fromCli = cli(['compare', ...bridge.flatMap((n) => ['--ruleset', n]), '--json', e.file]);
      const wasm = offline.raw.compare(bridge, readFileSync(e.file, 'utf8')).text;
      const { scenario, ...rest } = JSON.parse(fromCli || '{}'); /* the CLI names the file it read */
      check(`${e.file} compared under ${bridge.join(' and ')} as \`arbiter compare --json\``,
        scenario && wasm && JSON.stringify(rest) === inOrder(wasm), `CLI ${fromCli.slice(0, 120)} wasm ${String(wasm).slice(0, 120)}`);
    }
  }
  for (const name of names) {
    const articles = offline.request('api/rulesets/' + name).body.articles.map((a) => a.id);
    const differ = articles.filter((id) => cli(['graph', '--ruleset', name, '--article', id]) !== offline.raw.graph(name, id).text);
    check(`the decision graphs of ${articles.length} articles of ${name}: the DOT of \`arbiter graph\`, byte for byte`,
      articles.length > 0 && differ.length === 0, 'differ: ' + differ.join(' '));
  }
  scorerDesk(offline, names, games);
  await sameAsServer(offline, names, games);
  await withPlugins(offline, names);
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed ? 1 : 0;
}

main().catch((e) => {
  console.log('FAIL wasm-equal: ' + (e.stack || e));
  console.log(`${passed} passed, ${failed + 1} failed`);
  process.exitCode = 1;
});
