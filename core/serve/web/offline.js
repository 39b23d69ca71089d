/* offline.js — the JSON API of `arbiter serve` (core/serve/serve.c) answered
 * in the page, by libarbiter compiled to WebAssembly (arbiter.js and
 * arbiter.wasm, built by `make web` from core/web/glue.c). app.js asks its
 * questions through one function, api(path, body); when no server answers
 * (a static web host, a phone in airplane mode) that function hands them
 * to ArbiterOffline.request, which gives the answers the server gives: the
 * same arb_ call for each endpoint, the same status codes and errors.
 *
 * Works in a page (a <script>, the global ArbiterOffline) and in Node (the
 * tests require it). */
'use strict';

(function (root) {
  let mod = null;      /* the Emscripten module */
  let list = null;     /* [each ruleset in brief] */
  const details = {};  /* name → the ruleset with its articles and facts */

  /* A call of the glue: its answer (a text the glue malloc'd, freed here),
   * its status (enum arb_status) and error. */
  function call(fn, types, args) {
    const ptr = mod.ccall(fn, 'number', types, args);
    const text = ptr ? mod.UTF8ToString(ptr) : null;
    if (ptr) mod._arbw_free(ptr);
    return { text, status: mod._arbw_status(), error: mod.UTF8ToString(mod._arbw_error()) };
  }

  /* The same with every argument a text (or null), put on the heap rather
   * than on the stack, as ccall puts a string: a sheet or a PBN file may be
   * large. */
  function callTexts(fn, args) {
    const ptrs = [];
    try {
      for (const a of args) {
        if (a === null || a === undefined) { ptrs.push(0); continue; }
        const size = mod.lengthBytesUTF8(a) + 1;
        const p = mod._malloc(size);
        if (!p) return { text: null, status: 3, error: 'out of memory' };
        mod.stringToUTF8(a, p, size);
        ptrs.push(p);
      }
      return call(fn, args.map(() => 'number'), ptrs);
    } finally {
      for (const p of ptrs) if (p) mod._free(p);
    }
  }

  /* Loads the module (arbiter.js beside the page, or given) and compiles
   * its rulesets; resolves to their names. options.dir: where the rule
   * files are in the module's file system (default /rulesets). */
  async function start(options = {}) {
    if (mod) return list.map((r) => r.name);
    const factory = options.factory || root.ArbiterModule || await loadScript(options.script || 'arbiter.js');
    mod = await factory(options.module || {});
    if (options.files) options.files(mod.FS); /* the tests place rule files of their own */
    const n = mod.ccall('arbw_init', 'number', ['string'], [options.dir || '/rulesets']);
    if (n <= 0) throw new Error('no ruleset compiled: ' + mod.UTF8ToString(mod._arbw_error()));
    list = JSON.parse(call('arbw_rulesets', [], []).text);
    return list.map((r) => r.name);
  }

  function loadScript(src) {
    return new Promise((resolve, reject) => {
      const s = document.createElement('script');
      s.src = src;
      s.onload = () => (root.ArbiterModule ? resolve(root.ArbiterModule) : reject(new Error(src + ' defines no module')));
      s.onerror = () => reject(new Error(src + ' could not be loaded'));
      document.head.append(s);
    });
  }

  const answer = (status, body) => ({ ok: status >= 200 && status < 300, status, body });
  const fail = (status, error) => answer(status, { error });

  function known(name) { return list.some((r) => r.name === name); }

  function rulesetOf(name) {
    if (!details[name]) details[name] = JSON.parse(call('arbw_ruleset', ['string'], [name]).text);
    return details[name];
  }

  function refuseUnknownKeys(body, keys) {
    const bad = Object.keys(body).find((k) => !keys.includes(k));
    return bad === undefined ? null : fail(400, `unknown key '${bad}' (this endpoint takes: ${keys.join(', ')})`);
  }

  /* "ruleset" of a request: the served ruleset it names, or the error. */
  function requestRuleset(body) {
    if (typeof body.ruleset !== 'string')
      return { error: fail(400, 'give "ruleset": the name of a ruleset (GET /api/rulesets lists them)') };
    if (!known(body.ruleset)) return { error: fail(404, `no ruleset '${body.ruleset}' is served (GET /api/rulesets lists them)`) };
    return { name: body.ruleset };
  }

  const isObject = (x) => x !== null && typeof x === 'object' && !Array.isArray(x);
  const gameOf = (name) => (list.find((r) => r.name === name) || {}).game;

  /* /api/next and /api/rule: the ruling (with the ruleset's title before the
   * question or the broken invariant, as the server orders it). */
  function rule(body, next) {
    const bad = refuseUnknownKeys(body, ['ruleset', 'scenario']);
    if (bad) return bad;
    const rs = requestRuleset(body);
    if (rs.error) return rs.error;
    if (!isObject(body.scenario)) return fail(400, 'give "scenario": an object of facts, as in a scenario file');
    const r = call(next ? 'arbw_next' : 'arbw_rule', ['string', 'string'], [rs.name, JSON.stringify(body.scenario)]);
    if (!r.text) return fail(500, r.error || 'out of memory');
    const j = JSON.parse(r.text);
    if (j.status === 'bad_input' || j.status === 'plugin_error') return fail(400, j.error);
    const { question, impossible, ...rest } = j;
    const out = { ...rest, title: rulesetOf(rs.name).title };
    if (question) out.question = question;
    if (impossible) out.impossible = impossible;
    return answer(200, out);
  }

  function compare(body) {
    const bad = refuseUnknownKeys(body, ['rulesets', 'scenario']);
    if (bad) return bad;
    const names = body.rulesets;
    if (!Array.isArray(names) || names.length < 2 || names.length > 8) return fail(400, 'give "rulesets": a list of 2 to 8 ruleset names');
    if (names.some((n) => typeof n !== 'string')) return fail(400, '"rulesets" holds names (strings)');
    const unknown = names.find((n) => !known(n));
    if (unknown !== undefined) return fail(404, `no ruleset '${unknown}' is served (GET /api/rulesets lists them)`);
    if (!isObject(body.scenario)) return fail(400, 'give "scenario": an object of facts');
    const r = call('arbw_compare', ['string', 'string'], [names.join('\n'), JSON.stringify(body.scenario)]);
    if (r.error || !r.text) return fail(400, r.error || 'out of memory');
    const j = JSON.parse(r.text);
    j.rulings.forEach((one, i) => { /* beside a ruling that needs a fact, its question */
      const q = one.needs && rulesetOf(names[i]).facts.find((f) => f.name === one.needs);
      if (q) one.question = q;
    });
    return answer(200, j);
  }

  /* A scorer's call that failed: no ruling (422) or a bad request (400). */
  const scoreFailed = (r, hint) => fail(r.status === 1 ? 422 : 400, (r.error || '') + hint);

  function score(body) {
    const bad = refuseUnknownKeys(body, ['ruleset', 'contract', 'vulnerable']);
    if (bad) return bad;
    const rs = requestRuleset(body);
    if (rs.error) return rs.error;
    if (typeof body.contract !== 'string') return fail(400, 'give "contract": a contract and its result, such as "4SX+1"');
    const vul = body.vulnerable;
    if (vul !== undefined && typeof vul !== 'boolean') return fail(400, '"vulnerable" is true or false');
    if (gameOf(rs.name) === 'klaverjas') return fail(400, `${rs.name} scores hands: POST /api/klaverjas`);
    const r = call('arbw_score', ['string', 'string', 'number'], [rs.name, body.contract, vul === undefined ? -1 : vul ? 1 : 0]);
    if (r.status === 0) return answer(200, JSON.parse(r.text));
    const needs = r.text && JSON.parse(r.text).needs !== undefined;
    return scoreFailed(r, needs && vul === undefined ? '; give "vulnerable": true or false' : '');
  }

  function klaverjas(body) {
    const bad = refuseUnknownKeys(body, ['ruleset', 'hand']);
    if (bad) return bad;
    const rs = requestRuleset(body);
    if (rs.error) return rs.error;
    if (gameOf(rs.name) !== 'klaverjas') return fail(400, `${rs.name} is not a klaverjas ruleset`);
    if (!isObject(body.hand)) return fail(400, 'give "scenario": an object of facts, as in a scenario file');
    const r = call('arbw_klaverjas', ['string', 'string'], [rs.name, JSON.stringify(body.hand)]);
    return r.status === 0 ? answer(200, JSON.parse(r.text)) : scoreFailed(r, '');
  }

  function matchpoints(body) {
    const bad = refuseUnknownKeys(body, ['ruleset', 'csv', 'format']);
    if (bad) return bad;
    const format = requestFormat(body, 'matchpoints');
    if (format.error) return format.error;
    const rs = requestRuleset(body);
    if (rs.error) return rs.error;
    const sheet = requestText(body, 'csv', 'the scores, one per line, or board,pair,score');
    if (sheet.error) return sheet.error;
    const r = callTexts('arbw_matchpoints', [rs.name, sheet.text]);
    if (r.status === 2 && /at most/.test(r.error)) return fail(413, r.error);
    return answered(rs.name, 'rows', r, format.form);
  }

  /* A text of the request ("csv", "pbn"): the text, or the error the
   * server gives. */
  function requestText(body, key, what) {
    if (typeof body[key] !== 'string') return { error: fail(400, `give "${key}": ${what}`) };
    if (body[key].includes('\0')) return { error: fail(400, `"${key}" is not text (it holds a NUL character)`) };
    return { text: body[key] };
  }

  /* "format" of a scorer's request: csvForm (arb_csv's form) for "csv",
   * null for "json" or none; or the error. */
  function requestFormat(body, csvForm) {
    if (body.format === undefined || body.format === 'json') return { form: null };
    if (body.format === 'csv') return { form: csvForm };
    return { error: fail(400, '"format" is json or csv') };
  }

  /* A library call's answer (JSON text) as the body's value under key, or
   * with a CSV form its CSV under "csv" (as the server's answer_value()). */
  function answerValue(form, text, key) {
    if (!form) return { key, value: JSON.parse(text) };
    const c = callTexts('arbw_csv', [form, text]);
    return c.status === 0 ? { key: 'csv', value: c.text } : null;
  }

  /* A library call's answer under key (or its CSV), or its error (as the
   * server's answered()). */
  function answered(name, key, r, form = null) {
    if (r.status !== 0) return fail(r.status === 3 ? 503 : 400, r.error);
    const v = answerValue(form, r.text, key);
    return v ? answer(200, { ruleset: name, [v.key]: v.value }) : fail(503, 'out of memory');
  }

  /* A flag of the request (absent: false), or the error. */
  function requestFlag(body, key) {
    if (body[key] === undefined || typeof body[key] === 'boolean') return { flag: body[key] === true };
    return { error: fail(400, `"${key}" is true or false`) };
  }

  function session(body) {
    const boards = requestFlag(body, 'boards');
    if (boards.error) return boards.error;
    const bad = refuseUnknownKeys(body, ['ruleset', 'csv', 'method', 'format', 'boards']);
    if (bad) return bad;
    const format = requestFormat(body, boards.flag ? 'session-boards' : 'session');
    if (format.error) return format.error;
    const rs = requestRuleset(body);
    if (rs.error) return rs.error;
    const sheet = requestText(body, 'csv', "the session's sheet, a header row and a line per board and table");
    if (sheet.error) return sheet.error;
    if (body.method !== undefined && typeof body.method !== 'string') return fail(400, '"method" is matchpoints, butler, cross or total');
    return answered(rs.name, 'session', callTexts('arbw_session', [rs.name, sheet.text, body.method ?? null]), format.form);
  }

  function ranking(body) {
    const bad = refuseUnknownKeys(body, ['ruleset', 'csv', 'format']);
    if (bad) return bad;
    const format = requestFormat(body, 'ranking');
    if (format.error) return format.error;
    const rs = requestRuleset(body);
    if (rs.error) return rs.error;
    const sheet = requestText(body, 'csv', 'board,pair,score lines');
    if (sheet.error) return sheet.error;
    return answered(rs.name, 'ranking', callTexts('arbw_ranking', [rs.name, sheet.text]), format.form);
  }

  /* A PBN file's results scored; with "ranking": true its ScoreTables' rows
   * ranked as a session, with "totals": true its TotalScoreTable held
   * against that ranking, with "export": true the file in the export format
   * (no ruleset needed). */
  function pbn(body) {
    const flags = {};
    for (const key of ['export', 'ranking', 'totals', 'boards']) {
      const f = requestFlag(body, key);
      if (f.error) return f.error;
      flags[key] = f.flag;
    }
    if (flags.export + flags.ranking + flags.totals > 1) return fail(400, '"export", "ranking", "totals": one at a time');
    const bad = refuseUnknownKeys(body, ['ruleset', 'pbn', 'export', 'ranking', 'totals', 'boards', 'format']);
    if (bad) return bad;
    if (flags.export) {
      const file = requestText(body, 'pbn', 'the text of a PBN file');
      if (file.error) return file.error;
      const r = callTexts('arbw_pbn_export', [file.text, 'pbn']);
      return r.status === 0 ? answer(200, { pbn: r.text }) : fail(r.status === 3 ? 503 : 400, r.error);
    }
    const view = flags.totals ? ['totals', 'arbw_pbn_totals', 'pbn-totals']
      : flags.ranking ? ['session', 'arbw_pbn_session', flags.boards ? 'session-boards' : 'session']
        : ['games', 'arbw_pbn', 'pbn'];
    const format = requestFormat(body, view[2]);
    if (format.error) return format.error;
    const rs = requestRuleset(body);
    if (rs.error) return rs.error;
    const file = requestText(body, 'pbn', 'the text of a PBN file');
    if (file.error) return file.error;
    const r = callTexts(view[1], [rs.name, file.text, 'pbn']);
    /* the file's mistakes, and the games read all the same (as the server) */
    if (r.status === 2 && r.text !== null) {
      const v = answerValue(format.form, r.text, view[0]);
      if (v) return answer(400, { ruleset: rs.name, [v.key]: v.value, error: r.error });
    }
    return answered(rs.name, view[0], r.status === 2 ? { ...r, text: null } : r, format.form);
  }

  function graph(query) {
    const name = query.get('ruleset'), id = query.get('article');
    if (!name || !id) return fail(400, 'give ?ruleset=NAME&article=N');
    if (!known(name)) return fail(404, `no ruleset '${name}' is served (GET /api/rulesets lists them)`);
    const r = call('arbw_graph', ['string', 'string'], [name, id]);
    if (r.status !== 0) return fail(404, r.error);
    const article = rulesetOf(name).articles.find((a) => a.id === id);
    const en = article && article.title_en ? { title_en: article.title_en } : {};
    return answer(200, { ruleset: name, article: id, title: article ? article.title : '', ...en, dot: r.text });
  }

  const POST = { next: (b) => rule(b, true), rule: (b) => rule(b, false), compare, score, klaverjas, matchpoints, session, ranking, pbn };

  /* One request as app.js makes it: a path under api/, and a body for a POST. */
  function request(path, body) {
    if (!mod) return fail(503, 'the rules module is not loaded');
    const url = new URL(path, 'http://app/');
    const endpoint = url.pathname.replace(/^.*\/api\//, '');
    try {
      if (body === undefined) {
        if (endpoint === 'rulesets') return answer(200, { rulesets: list });
        if (endpoint.startsWith('rulesets/')) {
          const name = decodeURIComponent(endpoint.slice(9));
          return known(name) ? answer(200, rulesetOf(name)) : fail(404, `no ruleset '${name}' is served (GET /api/rulesets lists them)`);
        }
        if (endpoint === 'graph') return graph(url.searchParams);
        return fail(404, 'no page ' + url.pathname);
      }
      if (!isObject(body)) return fail(400, 'the body is not a JSON object');
      const fn = POST[endpoint];
      return fn ? fn(body) : fail(404, 'no page ' + url.pathname);
    } catch (e) {
      return fail(500, String(e.message || e));
    }
  }

  /* Club plugins (docs/plugins.md), loaded from their text: the file a
   * director picks, under its name. Each is loaded for every ruleset that
   * takes it, with the CLI's limits, and every request above then rules
   * with them, as `arbiter serve --plugin FILE` does. add resolves to
   * {ok, plugins} or {ok: false, error} (the CLI's message: the error of
   * `--ruleset RULESET --plugin FILE`, when no ruleset takes the plugin;
   * then nothing changed). plugins: [{file, name, hash, rulesets, refused}]. */
  function listPlugins() {
    return JSON.parse(call('arbw_plugins', [], []).text);
  }

  function changed(r) {
    return r.text ? { ok: true, plugins: JSON.parse(r.text) } : { ok: false, error: r.error || 'out of memory' };
  }

  const plugins = {
    list: () => (mod ? listPlugins() : []),
    add(file, source, ruleset) {
      /* the text on the heap, not on the stack as ccall puts a string: a file may be large */
      const size = mod.lengthBytesUTF8(source) + 1;
      const text = mod._malloc(size);
      if (!text) return { ok: false, error: 'out of memory' };
      try {
        mod.stringToUTF8(source, text, size);
        return changed(call('arbw_plugin_add', ['string', 'number', 'string'], [file, text, ruleset || '']));
      } finally {
        mod._free(text);
      }
    },
    remove: (file) => changed(call('arbw_plugin_remove', ['string'], [file])),
  };

  /* The glue itself, for the tests that compare its texts with the CLI's. */
  const raw = {
    batch: (name, jsonl) => call('arbw_batch', ['string', 'string'], [name, jsonl]),
    rule: (name, scenario) => call('arbw_rule', ['string', 'string'], [name, scenario]),
    next: (name, scenario) => call('arbw_next', ['string', 'string'], [name, scenario]),
    klaverjas: (name, hand) => call('arbw_klaverjas', ['string', 'string'], [name, hand]),
    legal: (name, position) => call('arbw_legal', ['string', 'string'], [name, position]),
    score: (name, contract, vul) => call('arbw_score', ['string', 'string', 'number'], [name, contract, vul]),
    matchpoints: (name, sheet) => call('arbw_matchpoints', ['string', 'string'], [name, sheet]),
    compare: (names, scenario) => call('arbw_compare', ['string', 'string'], [names.join('\n'), scenario]),
    graph: (name, article) => call('arbw_graph', ['string', 'string'], [name, article]),
    session: (name, sheet, method) => callTexts('arbw_session', [name, sheet, method ?? null]),
    ranking: (name, sheet) => callTexts('arbw_ranking', [name, sheet]),
    pbn: (name, text, file) => callTexts('arbw_pbn', [name, text, file ?? null]),
    pbnSession: (name, text, file) => callTexts('arbw_pbn_session', [name, text, file ?? null]),
    pbnTotals: (name, text, file) => callTexts('arbw_pbn_totals', [name, text, file ?? null]),
    csv: (form, json) => callTexts('arbw_csv', [form, json]),
    pbnExport: (text, file) => callTexts('arbw_pbn_export', [text, file ?? null]),
  };

  const api = { start, request, plugins, raw };
  if (typeof module === 'object' && module.exports) module.exports = api;
  else root.ArbiterOffline = api;
})(typeof self !== 'undefined' ? self : globalThis);
