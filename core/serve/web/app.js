/* app.js — the web app of `arbiter serve`: a ruling question by question,
 * editions compared, an article's decision graph, a klaverjas score sheet,
 * a matchpoint sheet, a contract score and a session's results (a CSV
 * sheet or a PBN file ranked, a klaverjas ranking). Everything it shows comes from
 * the JSON API of core/serve/serve.c, answered by one of two back ends
 * with the same answers: the server, when one answers at api/, else the
 * library compiled to WebAssembly in the page (offline.js, built by `make
 * web`), so that the app rules on a static web host and with no network.
 * Nothing is loaded from elsewhere. Text is always set with textContent,
 * never parsed as HTML.
 *
 * A ruling's answers live in the address (?ed=EDITION&FACT=VALUE…, in the
 * order asked), so that a ruling is a link to share or reopen, and in local
 * storage, so that a reload keeps them. */
'use strict';

/* ---- words: the app's own (the rulings come in the ruleset's words) ---- */

const WORDS = {
  nl: {
    tab_ruling: 'Uitspraak', tab_klaverjas: 'Klaverjas', tab_matchpoints: 'Matchpoints', tab_score: 'Score',
    tab_results: 'Uitslag',
    rs_title: 'Uitslag van een zitting', rs_method: 'Telling', rs_matchpoints: 'Matchpoints (78A)',
    rs_butler: 'Butler (IMPs, 78B)', rs_cross: 'Cross-IMPs (78B)', rs_total: 'Scorepunten (78C)',
    rs_hint: 'De scorestaat als CSV (board,ns,ew,score; ook met ;) of een PBN-bestand',
    rs_hint_kj: 'De scorestaat als CSV: board,pair,score (de punten van elk paar per spel)',
    rs_file: 'Of kies een bestand (.csv, .pbn)', rs_ranking: 'Rangschikking', rs_ranking_all: 'Rangschikking',
    rs_boards: 'Per spel', rs_notes: 'Aantekeningen', place: 'Plaats', boards: 'Spellen', top: 'Top',
    percentage: '%', imps: 'IMPs', tops: 'Tops', tie_broken_by: 'Gelijk, beslist door',
    rs_download_ranking: 'Rangschikking als CSV', rs_download_boards: 'Spellen als CSV',
    rs_download_pbn: 'PBN-export', rs_download_games: 'Resultaten als CSV', rs_games: 'De resultaten van het bestand', line: 'Regel',
    declarer: 'Leider', problem: 'Probleem', rs_column: 'Kolom', rs_file_says: 'Bestand', rs_arbiter_says: 'arbiter',
    rs_disagree: 'Waar de cijfers van het bestand afwijken', rs_agree: 'De cijfers van het bestand kloppen met die van arbiter.',
    rs_pbn_ranking: 'Rangschikking uit de resultaten van het bestand', rs_pairs: 'NS–OW', rs_adjusted_mark: '†',
    edition: 'Regelset (uitgave)', auction_optional: 'Biedverloop (optioneel)',
    auction_hint: 'Gever, dubbele punt, dan de biedingen: N: 1S 1H',
    restart: 'Opnieuw beginnen', ok: 'OK', back: '← Terug', decided_by: 'Beslist op grond van',
    compare_title: 'Een andere uitgave', compare_with: 'Vergelijk met', compare: 'Vergelijk',
    all_editions: 'alle uitgaven naast elkaar',
    graph_hint: 'De beslisboom van het artikel; het pad van deze uitspraak is gemarkeerd.',
    close: 'Sluiten', graph_list: 'De beslissingen als lijst',
    kj_title: 'Klaverjas: een spel tellen', trump: 'Troef', taker: 'Speler (speelt het spel)',
    kj_hint: 'Per slag: wie uitkwam en de vier kaarten in volgorde (SA H10 KB DV …), en of er roem gemeld is.',
    leader: 'Uit', cards: 'Kaarten', roem: 'Roem',
    kj_hands: 'Handen (optioneel: dan wordt ook op verzaken gecontroleerd)',
    count: 'Tel het spel', example: 'Voorbeeld', clear: 'Leeg',
    mp_title: 'Matchpoints voor een spel', mp_hint: 'Scores, één per regel, of CSV: spel,paar,score',
    mp_file: 'Of kies een CSV-bestand', mp_go: 'Reken uit',
    sc_title: 'De score van een contract', contract: 'Contract en resultaat', vulnerable: 'Kwetsbaar?',
    no: 'nee', yes: 'ja', sc_go: 'Bereken',
    footer: 'arbiter — uitspraken met het spoor van de artikelen.',
    ruling_by: 'Uitspraak volgens', no_ruling: 'Geen uitspraak', change: 'wijzig', correct: 'verbeter',
    from_auction: 'uit het biedverloop', from_record: 'uit het verloop', assumed: 'aangenomen',
    call_hint: 'Een bieding: P, X, XX of een bod zoals 2H of 3SA.', number_hint: 'Een getal',
    impossible: 'Dat kan niet', articles: 'Artikelen', ruleset_hash: 'Regelset',
    same: 'Geen verschil tussen de uitgaven voor deze situatie.', only_in: 'Alleen in',
    differs: 'verschilt', needs_more: 'heeft nog een antwoord nodig:', continue_under: 'Verder onder',
    unreadable: 'kan deze situatie niet lezen:', show_graph: 'beslisboom',
    trick: 'Slag', winner: 'Wint', points: 'Punten', takers: 'Spelers', defenders: 'Tegenspelers',
    card_points: 'kaartpunten', tricks_won: 'Slagen', revoke: 'Verboden kaart (art. 12)', revoke_none: 'geen',
    revoke_unknown: 'niet vast te stellen zonder alle handen', score: 'Score', total: 'Totaal',
    board: 'Spel', pair: 'Paar', matchpoints: 'Matchpoints', score_of: 'Score van de leider',
    needs_server: 'De server antwoordt niet', hand_of: 'Hand van', taker_short: 'speler',
    search: 'Zoek…', group_auction: 'Bieden', group_play: 'Spelen', group_after: 'Na afloop', group_other: 'Overig',
    nothing_found: 'Niets gevonden', offline_mode: 'Zonder server: de regels draaien in deze telefoon of browser.',
    measure: 'Wat nu aan tafel', share: 'Link naar deze uitspraak', copied: 'Link gekopieerd',
    loading: 'De regels worden geladen…',
    plugins_title: 'Clubreglement (plugin)', plugins_file: 'Kies het bestand (.lua)', plugins_none: 'geen',
    plugins_hint: 'Het Lua-bestand van de club. Het blijft in deze browser bewaard en geldt voor elke uitspraak onder de regelsets die het aannemen.',
    plugin_remove: 'Verwijder', plugin_for: 'geldt voor', plugin_for_none: 'geen regelset neemt het aan',
    plugin_file: 'Plugin-bestand', plugin: 'Plugin',
  },
  en: {
    tab_ruling: 'Ruling', tab_klaverjas: 'Klaverjas', tab_matchpoints: 'Matchpoints', tab_score: 'Score',
    tab_results: 'Results',
    rs_title: "A session's results", rs_method: 'Scoring', rs_matchpoints: 'Matchpoints (78A)',
    rs_butler: 'Butler (IMPs, 78B)', rs_cross: 'Cross-IMPs (78B)', rs_total: 'Total points (78C)',
    rs_hint: 'The score sheet as CSV (board,ns,ew,score; ; too) or a PBN file',
    rs_hint_kj: "The score sheet as CSV: board,pair,score (each pair's points on each board)",
    rs_file: 'Or choose a file (.csv, .pbn)', rs_ranking: 'Ranking', rs_ranking_all: 'Ranking',
    rs_boards: 'Board by board', rs_notes: 'Notes', place: 'Place', boards: 'Boards', top: 'Top',
    percentage: '%', imps: 'IMPs', tops: 'Tops', tie_broken_by: 'Tie broken by',
    rs_download_ranking: 'Ranking as CSV', rs_download_boards: 'Boards as CSV',
    rs_download_pbn: 'PBN export', rs_download_games: 'Results as CSV', rs_games: "The file's results", line: 'Line',
    declarer: 'Declarer', problem: 'Problem', rs_column: 'Column', rs_file_says: 'File', rs_arbiter_says: 'arbiter',
    rs_disagree: "Where the file's own figures differ", rs_agree: "The file's own figures agree with arbiter's.",
    rs_pbn_ranking: "Ranking from the file's results", rs_pairs: 'NS–EW', rs_adjusted_mark: '†',
    edition: 'Ruleset (edition)', auction_optional: 'Auction (optional)',
    auction_hint: 'Dealer, a colon, then the calls: N: 1S 1H',
    restart: 'Start again', ok: 'OK', back: '← Back', decided_by: 'Decided on',
    compare_title: 'Another edition', compare_with: 'Compare with', compare: 'Compare',
    all_editions: 'all editions side by side',
    graph_hint: "The article's decision graph; this ruling's path is marked.",
    close: 'Close', graph_list: 'The decisions as a list',
    kj_title: 'Klaverjas: scoring a hand', trump: 'Trumps', taker: 'Taker (plays the game)',
    kj_hint: 'Per trick: who led and the four cards in order (SA H10 CJ DQ …), and whether roem was claimed.',
    leader: 'Led', cards: 'Cards', roem: 'Roem',
    kj_hands: 'Hands (optional: then revokes are checked too)',
    count: 'Score the hand', example: 'Example', clear: 'Clear',
    mp_title: 'Matchpoints for a board', mp_hint: 'Scores, one per line, or CSV: board,pair,score',
    mp_file: 'Or choose a CSV file', mp_go: 'Calculate',
    sc_title: 'The score of a contract', contract: 'Contract and result', vulnerable: 'Vulnerable?',
    no: 'no', yes: 'yes', sc_go: 'Calculate',
    footer: 'arbiter — rulings with the trail of articles.',
    ruling_by: 'Ruling under', no_ruling: 'No ruling', change: 'change', correct: 'correct',
    from_auction: 'from the auction', from_record: 'from the record', assumed: 'assumed',
    call_hint: 'A call: P, X, XX or a bid such as 2H or 3NT.', number_hint: 'A number',
    impossible: 'That cannot be', articles: 'Articles', ruleset_hash: 'Ruleset',
    same: 'The editions rule this situation alike.', only_in: 'Only in',
    differs: 'differs', needs_more: 'needs one more answer:', continue_under: 'Continue under',
    unreadable: 'cannot read this situation:', show_graph: 'decision graph',
    trick: 'Trick', winner: 'Won by', points: 'Points', takers: 'Takers', defenders: 'Defenders',
    card_points: 'card points', tricks_won: 'Tricks', revoke: 'Card Art. 12 forbids', revoke_none: 'none',
    revoke_unknown: 'cannot be told without every hand', score: 'Score', total: 'Total',
    board: 'Board', pair: 'Pair', matchpoints: 'Matchpoints', score_of: "Declarer's score",
    needs_server: 'The server does not answer', hand_of: 'Hand of', taker_short: 'taker',
    search: 'Search…', group_auction: 'Auction', group_play: 'Play', group_after: 'After the play', group_other: 'Other',
    nothing_found: 'Nothing found', offline_mode: 'No server: the rules run on this phone or browser.',
    measure: 'What happens now at the table', share: 'Link to this ruling', copied: 'Link copied',
    loading: 'Loading the rules…',
    plugins_title: 'Club regulations (plugin)', plugins_file: 'Choose the file (.lua)', plugins_none: 'none',
    plugins_hint: "The club's Lua file. It is kept in this browser and applies to every ruling under the rulesets that take it.",
    plugin_remove: 'Remove', plugin_for: 'applies to', plugin_for_none: 'no ruleset takes it',
    plugin_file: 'Plugin file', plugin: 'Plugin',
  },
};

/* The groups of a long list of choices (the irregularities). A choice
 * that gives its group ("group": auction, play, after, other — proposed
 * for arb_fact_json, from the rule files) is put there; until the rule
 * files give it, this table says it for the shared bridge vocabulary
 * (rulesets/bridge-common/vocabulary.rules), by the part of the Laws that
 * rules on each irregularity, and a value it does not name is "other". */
const GROUPS = ['auction', 'play', 'after', 'other'];
const CHOICE_GROUPS = {
  irregularity: {
    auction: ['insufficient_bid', 'call_out_of_rotation', 'simultaneous_call', 'turn_missed_by_passes', 'change_of_call',
      'card_exposed_during_auction', 'misinformation', 'misstated_double', 'inadmissible_double',
      'call_when_obliged_to_pass', 'bid_above_seven', 'call_after_final_pass', 'stop_card_without_call',
      'mistaken_explanation', 'unauthorised_information_from_partner', 'partnership_agreement_breach'],
    play: ['dummy_irregularity', 'played_card_question', 'card_exposed_by_defender', 'penalty_card', 'lead_out_of_turn',
      'premature_play', 'simultaneous_play', 'inability_to_play', 'play_after_illegal_play', 'defective_trick',
      'card_pointed_wrong_way', 'trick_question'],
    after: ['revoke', 'claim', 'tricks_won_dispute'],
  },
};
const GROUP_FROM = 10; /* a list this long gets groups and a search box */

const SEATS = ['N', 'E', 'S', 'W'];
const EXAMPLE_HAND = { /* examples/klaverjas-hand.json */
  trump: 'H', taker: 'N',
  tricks: ['E:SA S7 S8 SK', 'E:SQ H8 S9 HJ', 'N:H9 D8 H10 H7', 'N:DQ D9 DK DJ',
           'S:DA D10 D7 C9', 'S:CA CK C7 C8', 'S:C10 CQ HA S10', 'N:HK SJ HQ CJ'],
  roem_claimed: [4, 8],
  hands: { N: 'SK HJ H9 HA HK DQ D7 C7', E: 'SA SQ SJ S10 C8 C9 D8 D9',
           S: 'S7 H8 H10 HQ DK DA CA C10', W: 'S8 S9 H7 DJ D10 CK CQ CJ' },
};

const state = {
  lang: localStorage.getItem('arbiter-lang') === 'en' ? 'en' : 'nl',
  rulesets: [],        /* GET /api/rulesets */
  details: {},         /* name → GET /api/rulesets/NAME */
  ruleset: null,       /* the ruling's edition */
  answers: [],         /* [{fact, value, corrected}] in the order asked */
  question: null,      /* the fact the server asks now */
  pluginFacts: {},     /* club plugins' own facts asked so far, by name */
  correcting: null,    /* the record fact the director is correcting */
  answer: null,        /* the last /api/next answer */
  graph: null,         /* {article, dot, zoom} */
  compareWith: null,   /* the edition last compared with, or ALL_EDITIONS */
  backend: 'server',   /* 'server' (arbiter serve) or 'wasm' (offline.js) */
  plugins: [],         /* the club plugins loaded in the page (offline.js plugins.list) */
  results: null,       /* the results screen's last answer: {kind, ruleset, body, pbn, session} */
};
const SAVED = 'arbiter-ruling'; /* local storage: the ruling's address (its query) */
const PLUGINS = 'arbiter-plugins'; /* local storage: the club plugins, [{file, text}] in order */

/* ---- small helpers ---- */

const $ = (id) => document.getElementById(id);
const t = (key) => WORDS[state.lang][key] || WORDS.nl[key] || key;

function el(tag, props, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props || {})) {
    if (k === 'class') e.className = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v === true ? '' : v);
  }
  for (const kid of kids.flat(Infinity)) if (kid !== null && kid !== undefined) e.append(kid);
  return e;
}

function show(node, visible) { node.hidden = !visible; }

function showError(node, message) {
  node.textContent = message || '';
  show(node, !!message);
}

/* POST (with a body) or GET of the API (path: api/…); resolves to {ok,
 * status, body} and never throws, so that every screen can show the
 * answer's own message. The one door to both back ends. */
async function api(path, body) {
  if (state.backend === 'wasm') return ArbiterOffline.request(path, body);
  try {
    const res = await fetch(path, body === undefined ? {} : {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
    });
    const json = await res.json().catch(() => ({ error: res.statusText }));
    return { ok: res.ok, status: res.status, body: json };
  } catch (e) {
    return { ok: false, status: 0, body: { error: t('needs_server') } };
  }
}

/* The English text when the language is English and the ruleset has it. */
function pick(nl, en) { return state.lang === 'en' && en ? en : nl; }

function details(name) { return state.details[name]; }

async function loadDetails(name) {
  if (!state.details[name]) {
    const r = await api('api/rulesets/' + encodeURIComponent(name));
    if (r.ok) state.details[name] = r.body;
  }
  return state.details[name];
}

function factOf(name, fact) {
  const d = details(name);
  return (d && d.facts.find((f) => f.name === fact)) || state.pluginFacts[fact];
}

/* An article's title, in English when the rule files give it ("title_en"). */
function articleTitle(name, id) {
  const d = details(name);
  const a = d && d.articles.find((x) => x.id === id);
  return a ? pick(a.title, a.title_en) : '';
}

/* A value as people read it: the choice's label, else the value. */
function valueLabel(fact, value) {
  const c = fact && fact.choices.find((x) => x.value === value);
  if (c) return pick(c.label, c.label_en);
  return String(value);
}

function fillSelect(select, rulesets, chosen) {
  select.replaceChildren(...rulesets.map((r) => el('option', { value: r.name, selected: r.name === chosen }, r.name + ' — ' + r.title)));
}

/* ---- language ---- */

function applyLanguage() {
  document.documentElement.lang = state.lang;
  for (const node of document.querySelectorAll('[data-t]')) node.textContent = t(node.dataset.t);
  for (const node of document.querySelectorAll('[data-t-placeholder]')) node.placeholder = t(node.dataset.tPlaceholder);
  for (const b of document.querySelectorAll('[data-lang]')) b.setAttribute('aria-pressed', String(b.dataset.lang === state.lang));
  if (state.answer) renderAnswer();
  renderAnswers();
  renderPlugins();
  resultsForm();
  if (state.results) renderResults();
}

/* ---- tabs ---- */

function showTab() {
  const name = (location.hash || '#uitspraak').slice(1);
  const known = ['uitspraak', 'klaverjas', 'matchpoints', 'score', 'uitslag'].includes(name) ? name : 'uitspraak';
  for (const v of document.querySelectorAll('.view')) show(v, v.dataset.view === known);
  for (const a of document.querySelectorAll('[data-tab]')) a.setAttribute('aria-current', a.dataset.tab === known ? 'page' : 'false');
}

/* ---- a ruling, question by question ---- */

function scenario(answers) {
  const s = {};
  const auction = $('auction').value.trim();
  if (auction) s.auction = auction;
  for (const a of answers || state.answers) s[a.fact] = a.value;
  /* values the director corrected win over what the record settles */
  const corrected = (answers || state.answers).filter((a) => a.corrected).map((a) => a.fact);
  if (corrected.length) s.corrected = corrected;
  return s;
}

/* Asks the server what comes next for the answers so far. */
async function next() {
  const r = await api('api/next', { ruleset: state.ruleset, scenario: scenario() });
  if (!r.ok) {
    /* The last answer (or the auction) was not accepted: say why, ask again. */
    const last = state.answers.pop();
    if (!last) { showStart(r.body.error); return; }
    await next();
    showError($('question-error'), r.body.error);
    return;
  }
  if (r.body.status === 'rejected' && state.answers.length) {
    const last = state.answers.pop();
    await next();
    const why = r.body.impossible || {};
    showError($('question-error'), t('impossible') + ': ' + pick(why.message, why.message_en) + ' (' + last.fact + ')');
    return;
  }
  state.answer = r.body;
  renderAnswer();
  renderAnswers();
  saveRuling();
  if (state.answers.length) (r.body.status === 'needs' ? $('question') : $('result')).scrollIntoView({ block: 'start' });
}

function showStart(message) {
  state.answer = null;
  show($('question'), false);
  show($('result'), false);
  showError($('load-error'), message);
}

function answerWith(value) {
  const fact = state.question.name;
  state.answers.push(state.correcting === fact ? { fact, value, corrected: true } : { fact, value });
  state.correcting = null;
  next();
}

/* The director corrects a value the record settled: ask its question. */
function correctFact(name, fact) {
  const f = factOf(name, fact);
  if (!f) return;
  state.correcting = fact;
  show($('question'), true);
  show($('result'), false);
  show($('compare'), false);
  showError($('question-error'), '');
  renderQuestion(f);
  $('back').disabled = false;
}

function renderAnswer() {
  const a = state.answer;
  /* a club plugin's own question comes with a ruling: ask it, then rule again */
  const needs = a.question && (a.status === 'needs' || a.question.from_plugin);
  show($('question'), !!needs);
  show($('result'), !needs);
  show($('compare'), !needs && a.status !== 'bad_input');
  showError($('question-error'), '');
  if (needs) renderQuestion(a.question);
  else renderResult(a);
  $('back').disabled = state.answers.length === 0;
}

function renderQuestion(q) {
  state.question = q;
  if (q.from_plugin) state.pluginFacts[q.name] = q;
  $('question').dataset.fact = q.name;
  $('question-text').textContent = pick(q.question, q.question_en);
  renderChoices(q);
  const free = q.choices.length === 0;
  show($('free-answer'), free);
  if (free) {
    const input = $('free-input');
    input.value = '';
    input.type = q.type === 'int' ? 'number' : 'text';
    input.inputMode = q.type === 'int' ? 'numeric' : 'text';
    if (q.min !== undefined) { input.min = q.min; input.max = q.max; }
    $('free-hint').textContent = q.type === 'call' ? t('call_hint')
      : q.type === 'int' ? t('number_hint') + (q.min !== undefined ? ` (${q.min}..${q.max})` : '') : '';
    input.focus();
  }
}

function choiceButton(c) {
  return el('button', { type: 'button', class: 'choice', 'data-value': String(c.value), onclick: () => answerWith(c.value) },
    pick(c.label, c.label_en));
}

/* The group of a choice: its own "group", else the table above. */
function choiceGroup(fact, c) {
  if (GROUPS.includes(c.group)) return c.group;
  const table = CHOICE_GROUPS[fact] || {};
  return GROUPS.find((g) => (table[g] || []).includes(String(c.value))) || 'other';
}

/* The choices as buttons; a long list in its groups, with a search box
 * that keeps the choices whose label (Dutch or English) or name holds
 * every word typed. */
function renderChoices(q) {
  const choices = $('choices');
  const search = $('choice-search');
  const long = q.choices.length >= GROUP_FROM;
  show(search, long);
  search.value = '';
  if (!long) {
    choices.replaceChildren(...q.choices.map(choiceButton));
    return;
  }
  choices.replaceChildren(...GROUPS.map((g) => {
    const mine = q.choices.filter((c) => choiceGroup(q.name, c) === g);
    return mine.length ? el('section', { class: 'group', 'data-group': g }, el('h3', {}, t('group_' + g)),
      el('div', { class: 'choices' }, mine.map(choiceButton))) : null;
  }), el('p', { id: 'nothing-found', class: 'hint', hidden: true }, t('nothing_found')));
}

function filterChoices() {
  const words = $('choice-search').value.toLowerCase().split(/\s+/).filter(Boolean);
  const q = state.question;
  let shown = 0;
  for (const b of $('choices').querySelectorAll('button.choice')) {
    const c = q.choices.find((x) => String(x.value) === b.dataset.value) || {};
    const text = [c.label, c.label_en, String(c.value).replace(/_/g, ' ')].join(' ').toLowerCase();
    const hit = words.every((w) => text.includes(w));
    show(b, hit);
    shown += hit;
  }
  for (const g of $('choices').querySelectorAll('section.group')) show(g, !!g.querySelector('button.choice:not([hidden])'));
  show($('nothing-found'), shown === 0);
}

/* The single choice the search leaves, on Enter. */
function searchKey(ev) {
  if (ev.key !== 'Enter') return;
  ev.preventDefault();
  const left = $('choices').querySelectorAll('button.choice:not([hidden])');
  if (left.length === 1) left[0].click();
}

function freeAnswer(ev) {
  ev.preventDefault();
  const text = $('free-input').value.trim();
  if (!text) return;
  answerWith(state.question.type === 'int' ? Number(text) : text);
}

/* The answers given so far, each a step to go back to. */
function renderAnswers() {
  const list = $('answers');
  list.replaceChildren(...state.answers.map((a, i) => {
    const fact = factOf(state.ruleset, a.fact);
    return el('li', {},
      el('span', { class: 'q' }, fact ? pick(fact.question, fact.question_en) : a.fact),
      el('span', { class: 'a' }, valueLabel(fact, a.value)),
      el('button', { type: 'button', class: 'link', onclick: () => goBackTo(i) }, t('change')));
  }));
}

function goBackTo(i) {
  state.answers = state.answers.slice(0, i);
  next();
}

function back() {
  if (state.correcting) {
    /* leave the correction: the ruling stands as it was */
    state.correcting = null;
    renderAnswer();
    return;
  }
  state.answers.pop();
  next();
}

function trailNode(name, trail) {
  const arts = new Set((details(name) || { articles: [] }).articles.map((a) => a.id));
  return el('div', { class: 'trail' }, el('span', { class: 'label' }, t('articles') + ': '),
    trail.map((cite, i) => {
      const parts = [i ? el('span', { class: 'sep' }, ' › ') : null];
      if (arts.has(cite)) {
        parts.push(el('button', { type: 'button', class: 'cite article', title: t('show_graph'), onclick: () => openGraph(name, cite) },
          cite + ' ' + articleTitle(name, cite)));
      } else {
        parts.push(el('span', { class: 'cite' }, cite));
      }
      return parts;
    }));
}

function messageList(r, only) {
  const msgs = r.messages || [];
  return msgs.map((m, i) => {
    const act = (r.actions || [])[i] || {};
    const text = pick(m, (r.messages_en || [])[i]);
    const differs = only && only.some((o) => o.name === act.name && JSON.stringify(o.args) === JSON.stringify(act.args));
    return el('li', { class: differs ? 'only' : null }, el('span', { class: 'cite' }, act.article || ''), ' ', text);
  });
}

function renderResult(a) {
  const ok = a.status === 'ruling';
  $('result-title').textContent = (ok ? t('ruling_by') : t('no_ruling')) + ' ' + (a.title || a.ruleset);
  showError($('result-problem'), ok ? '' : a.error);
  $('trail').replaceWith(Object.assign(trailNode(a.ruleset, a.articles || []), { id: 'trail' }));
  $('messages').replaceChildren(...messageList(a));
  $('decided').replaceChildren(...(a.decided_by || []).flatMap((d) => {
    const fact = factOf(a.ruleset, d.fact);
    const source = d.source === 'given' ? '' : ' (' + (d.source === 'auction' ? t('from_auction') : d.source === 'default' ? t('assumed') : t('from_record')) + ')';
    const fix = d.source === 'given' || !fact ? [] : [' ', el('button', { type: 'button', class: 'link', 'data-correct': d.fact,
      onclick: () => correctFact(a.ruleset, d.fact) }, t('correct'))];
    return [el('dt', {}, fact ? pick(fact.question, fact.question_en) : d.fact), el('dd', {}, valueLabel(fact, d.value) + source, ...fix)];
  }));
  $('result-hash').textContent = t('ruleset_hash') + ': ' + a.ruleset + ' ' + a.ruleset_hash;
  /* the club plugins: what each changed, and each file with its hash, as `arbiter rule` prints them */
  $('result-plugins').replaceChildren(
    ...(a.plugins || []).map((p) => el('li', {}, t('plugin') + ' ' + p.plugin + ' (' + p.cite + '): ' + p.changed)),
    ...(a.plugin_files || []).map((p) => el('li', { class: 'plugin-file' }, t('plugin_file') + ': ' + p.file + ' (' + p.name + '), ' + p.hash)));
  const others = otherEditions(a.ruleset);
  fillSelect($('compare-with'), others, $('compare-with').value);
  /* With more than one other edition, all of them side by side is the
   * first choice: one tap shows every edition's ruling. */
  if (others.length > 1) {
    const chosen = $('compare-with').value;
    $('compare-with').prepend(el('option', { value: ALL_EDITIONS }, t('all_editions') + ' (' + others.map((r) => r.name).join(', ') + ')'));
    $('compare-with').value = state.compareWith && state.compareWith !== ALL_EDITIONS ? chosen : ALL_EDITIONS;
  }
  show($('compare'), others.length > 0);
  $('compare-out').replaceChildren();
}

const ALL_EDITIONS = '*';

/* The other rulesets of the same game: the editions a ruling can be compared with. */
function otherEditions(name) {
  return state.rulesets.filter((r) => r.name !== name && r.game === gameOf(name));
}

/* ---- the ruling in the address and in local storage ---- */

const RESERVED = ['ed', 'auction', 'fix', 'backend'];

/* The ruling as a query: ?ed=EDITION&auction=…&FACT=VALUE… in the order
 * asked, &fix=FACT,… for the values the director corrected. */
function rulingQuery() {
  const q = new URLSearchParams();
  const backend = new URLSearchParams(location.search).get('backend');
  if (backend) q.set('backend', backend); /* a chosen back end stays chosen */
  if (state.ruleset) q.set('ed', state.ruleset);
  const auction = $('auction').value.trim();
  if (auction) q.set('auction', auction);
  for (const a of state.answers) if (!RESERVED.includes(a.fact)) q.set(a.fact, String(a.value));
  const fixed = state.answers.filter((a) => a.corrected).map((a) => a.fact);
  if (fixed.length) q.set('fix', fixed.join(','));
  return q.toString();
}

function saveRuling() {
  const query = rulingQuery();
  const url = location.pathname + (query ? '?' + query : '') + location.hash;
  if (url !== location.pathname + location.search + location.hash) history.replaceState(null, '', url);
  try { localStorage.setItem(SAVED, query); } catch (e) { /* private mode: the address still has it */ }
}

/* The saved ruling: the address's (a shared link), else local storage's. */
function savedQuery() {
  if (new URLSearchParams(location.search).has('ed')) return location.search.slice(1);
  try { return localStorage.getItem(SAVED) || ''; } catch (e) { return ''; }
}

/* A value from the address as its fact takes it: true/false, a number, a name. */
function typedValue(fact, text) {
  if (fact && fact.type === 'bool') return text === 'true';
  if (fact && fact.type === 'int' && /^-?\d+$/.test(text)) return Number(text);
  /* a club plugin's own fact (not the ruleset's): yes/no and numbers as such */
  if (!fact && (text === 'true' || text === 'false')) return text === 'true';
  if (!fact && /^-?\d+$/.test(text)) return Number(text);
  return text;
}

/* The answers of a saved ruling, for an edition that is served; null when none. */
async function restoreRuling() {
  const q = new URLSearchParams(savedQuery());
  const name = q.get('ed');
  if (!name || !state.rulesets.some((r) => r.name === name)) return null;
  const d = await loadDetails(name);
  if (!d) return null;
  const fixed = (q.get('fix') || '').split(',').filter(Boolean);
  $('auction').value = q.get('auction') || '';
  if ($('auction').value) $('auction-box').open = true;
  state.answers = [...q.keys()].filter((k) => !RESERVED.includes(k)).map((fact) => {
    const a = { fact, value: typedValue(d.facts.find((f) => f.name === fact), q.get(fact)) };
    if (fixed.includes(fact)) a.corrected = true;
    return a;
  });
  return name;
}

async function shareRuling() {
  const link = location.href;
  try {
    if (navigator.share) await navigator.share({ title: document.title, url: link });
    else { await navigator.clipboard.writeText(link); showError($('share-note'), t('copied')); }
  } catch (e) { /* the director closed the share sheet */ }
}

function gameOf(name) {
  const r = state.rulesets.find((x) => x.name === name);
  return r ? r.game : '';
}

async function start(name) {
  state.ruleset = name;
  await loadDetails(name);
  closeGraph();
  await next();
}

/* Another edition, keeping the answers it knows. */
async function switchEdition(name) {
  const d = await loadDetails(name);
  const known = new Set(d ? d.facts.map((f) => f.name) : []);
  state.answers = state.answers.filter((a) => known.has(a.fact));
  $('ruleset').value = name;
  await start(name);
}

/* ---- editions compared ---- */

async function compare() {
  const other = $('compare-with').value;
  state.compareWith = other;
  const out = $('compare-out');
  const names = other === ALL_EDITIONS ? otherEditions(state.ruleset).map((r) => r.name) : [other];
  await Promise.all(names.map(loadDetails));
  const r = await api('api/compare', { rulesets: [state.ruleset, ...names], scenario: scenario() });
  if (!r.ok) { out.replaceChildren(el('p', { class: 'error' }, r.body.error)); return; }
  /* differences[k]: the first ruling against ruling k + 1 */
  const diffs = r.body.differences.map((d) => d || {});
  const differs = (d) => Object.keys(d).length > 0;
  const columns = r.body.rulings.map((ruling, side) => {
    if (side > 0) {
      const d = diffs[side - 1];
      return comparedColumn(ruling, (d.actions_only_in || [[], []])[1], d);
    }
    const only = diffs.flatMap((d) => (d.actions_only_in || [[], []])[0]);
    return comparedColumn(ruling, only, diffs.find((d) => d.articles) || {});
  });
  const rulings = r.body.rulings;
  const summaries = diffs.map((d, k) => el('p', { class: differs(d) ? 'differs' : 'same' },
    diffs.length > 1 ? rulings[0].ruleset + ' – ' + rulings[k + 1].ruleset + ': ' : '',
    differs(d) ? differenceSummary([rulings[0], rulings[k + 1]], d) : t('same')));
  out.replaceChildren(...summaries,
    el('div', { class: 'columns' + (columns.length > 2 ? ' three' : '') }, columns));
}

function differenceSummary(rulings, diff) {
  const parts = [];
  if (diff.status) parts.push('status: ' + diff.status.join(' / '));
  if (diff.articles) parts.push(t('articles') + ': ' + diff.articles.map((a) => a.join(' › ')).join('  ≠  '));
  if (diff.score) parts.push(t('score') + ': ' + diff.score.join(' / '));
  (diff.actions_only_in || []).forEach((acts, side) => {
    if (acts.length) parts.push(t('only_in') + ' ' + rulings[side].ruleset + ': ' + acts.map((x) => x.name).join(', '));
  });
  return parts.join(' · ');
}

function comparedColumn(ruling, only, diff) {
  const col = el('div', { class: 'column' }, el('h3', {}, ruling.ruleset), el('p', { class: 'hint' }, ruling.title || ''));
  if (ruling.status === 'bad_input') {
    col.append(el('p', { class: 'error' }, ruling.ruleset + ' ' + t('unreadable') + ' ' + ruling.error));
    return col;
  }
  if (ruling.status === 'needs' && ruling.question) {
    col.append(el('p', {}, ruling.ruleset + ' ' + t('needs_more') + ' ', el('em', {}, pick(ruling.question.question, ruling.question.question_en))),
      el('button', { type: 'button', onclick: () => switchEdition(ruling.ruleset) }, t('continue_under') + ' ' + ruling.ruleset));
    return col;
  }
  if (ruling.status !== 'ruling') col.append(el('p', { class: 'error' }, ruling.error || ruling.status));
  const trail = trailNode(ruling.ruleset, ruling.articles || []);
  if (diff.articles) trail.classList.add('only');
  col.append(trail, el('ul', { class: 'messages' }, messageList(ruling, only)));
  if (ruling.ruleset !== state.ruleset)
    col.append(el('button', { type: 'button', class: 'secondary', onclick: () => switchEdition(ruling.ruleset) }, t('continue_under') + ' ' + ruling.ruleset));
  return col;
}

/* ---- the decision graph ---- */

async function openGraph(name, article) {
  const r = await api('api/graph?ruleset=' + encodeURIComponent(name) + '&article=' + encodeURIComponent(article));
  if (!r.ok) { showError($('load-error'), r.body.error); return; }
  state.graph = { name, article, dot: r.body.dot, zoom: 1 };
  $('graph-title').textContent = name + ' — ' + article + ' ' + pick(r.body.title, r.body.title_en);
  $('graph-dot').textContent = r.body.dot;
  drawGraph();
  show($('graph'), true);
  $('graph').scrollIntoView({ behavior: 'smooth', block: 'start' });
}

function drawGraph() {
  const g = ArbiterGraph.parse(state.graph.dot);
  const decided = state.answer && state.answer.ruleset === state.graph.name ? state.answer.decided_by || [] : [];
  const path = ArbiterGraph.path(g, decided);
  $('graph-drawing').replaceChildren(ArbiterGraph.svg(g, path, state.graph.zoom));
  $('graph-list').replaceChildren(...ArbiterGraph.list(g, path).map((line) => el('li', { class: line.onPath ? 'on-path' : null }, line.text)));
}

function zoom(factor) {
  if (!state.graph) return;
  state.graph.zoom = Math.min(3, Math.max(0.25, state.graph.zoom * factor));
  drawGraph();
}

function closeGraph() {
  state.graph = null;
  show($('graph'), false);
}

/* ---- klaverjas ---- */

function seatSelect(id, withEmpty) {
  return el('select', { id, class: 'seat' }, withEmpty ? el('option', { value: '' }, '—') : null,
    SEATS.map((s) => el('option', { value: s }, s)));
}

function buildKlaverjasForm() {
  $('kj-taker').replaceChildren(...SEATS.map((s) => el('option', { value: s }, s)));
  const rows = [];
  for (let i = 1; i <= 8; i++) {
    rows.push(el('tr', {},
      el('td', {}, String(i)),
      el('td', {}, seatSelect('kj-lead-' + i, true)),
      el('td', {}, el('input', { id: 'kj-cards-' + i, class: 'cards', autocomplete: 'off', spellcheck: 'false', 'aria-label': t('trick') + ' ' + i, placeholder: i === 1 ? 'SA S7 S8 SK' : '' })),
      el('td', {}, el('input', { type: 'checkbox', id: 'kj-roem-' + i, 'aria-label': t('roem') + ' ' + i }))));
  }
  $('kj-tricks').replaceChildren(...rows);
  $('kj-hands').replaceChildren(...SEATS.map((s) => el('label', { class: 'field' }, el('span', {}, t('hand_of') + ' ' + s),
    el('input', { id: 'kj-hand-' + s, autocomplete: 'off', spellcheck: 'false' }))));
}

function fillKlaverjas(hand) {
  $('kj-trump').value = hand.trump;
  $('kj-taker').value = hand.taker;
  for (let i = 1; i <= 8; i++) {
    const trick = hand.tricks[i - 1] || '';
    const [lead, cards] = trick.includes(':') ? trick.split(':') : ['', trick];
    $('kj-lead-' + i).value = lead;
    $('kj-cards-' + i).value = (cards || '').trim();
    $('kj-roem-' + i).checked = (hand.roem_claimed || []).includes(i);
  }
  for (const s of SEATS) $('kj-hand-' + s).value = (hand.hands || {})[s] || '';
}

function klaverjasHand() {
  const hand = { trump: $('kj-trump').value, taker: $('kj-taker').value, tricks: [], roem_claimed: [] };
  for (let i = 1; i <= 8; i++) {
    const cards = $('kj-cards-' + i).value.trim();
    if (!cards) continue;
    const lead = $('kj-lead-' + i).value;
    hand.tricks.push(lead ? lead + ':' + cards : cards);
    if ($('kj-roem-' + i).checked) hand.roem_claimed.push(hand.tricks.length);
  }
  const hands = {};
  for (const s of SEATS) if ($('kj-hand-' + s).value.trim()) hands[s] = $('kj-hand-' + s).value.trim();
  if (Object.keys(hands).length) hand.hands = hands;
  return hand;
}

async function scoreKlaverjas(ev) {
  ev.preventDefault();
  const r = await api('api/klaverjas', { ruleset: $('kj-ruleset').value, hand: klaverjasHand() });
  showError($('kj-error'), r.ok ? '' : r.body.error);
  show($('kj-result'), r.ok);
  if (r.ok) renderKlaverjas(r.body);
}

const sideWord = (side) => t(side === 'takers' ? 'takers' : 'defenders');

function renderKlaverjas(h) {
  const score = [
    el('h3', {}, t('score') + ' ', el('span', { class: 'cites' }, (h.score.articles || []).join(' › '))),
    el('ul', { class: 'messages' }, messageList(h.score)),
    el('p', { class: 'final' }, el('span', {}, t('takers') + ': ', el('strong', { id: 'kj-takers' }, String(h.score.takers))),
      el('span', {}, t('defenders') + ': ', el('strong', { id: 'kj-defenders' }, String(h.score.defenders))))];
  if (h.from_record === false) { /* the result as given, without the tricks */
    $('kj-result').replaceChildren(el('h2', {}, h.ruleset), ...score);
    return;
  }
  const rows = h.tricks.map((tr) => el('tr', {},
    el('td', {}, String(tr.number)), el('td', {}, tr.leader + ': ' + tr.cards.join(' ')),
    el('td', {}, tr.winner + ' (' + sideWord(tr.won_by) + ')'),
    el('td', { class: 'num' }, String(tr.points.takers)), el('td', { class: 'num' }, String(tr.points.defenders)),
    el('td', { class: 'num' }, String(tr.roem.takers + tr.roem.defenders)),
    el('td', { class: 'cites' }, (tr.articles || []).join(' › '))));
  const totals = h.totals;
  const revoke = h.illegal ? h.illegal.seat + ' ' + h.illegal.card + ' (' + t('trick') + ' ' + h.illegal.trick + '): ' + pick((h.illegal.messages || []).join(' '), (h.illegal.messages_en || []).join(' '))
    : h.illegal_by === 'none' ? t('revoke_none') : t('revoke_unknown');
  $('kj-result').replaceChildren(
    el('h2', {}, h.ruleset + ': ' + t('trump') + ' ' + h.trump + ', ' + t('taker_short') + ' ' + h.taker),
    el('div', { class: 'scroll' }, el('table', { class: 'sheet' },
      el('thead', {}, el('tr', {}, [t('trick'), t('cards'), t('winner'), t('takers'), t('defenders'), t('roem'), t('articles')].map((x, i) => el('th', { class: i >= 3 && i <= 5 ? 'num' : null }, x)))),
      el('tbody', {}, rows),
      el('tfoot', {}, el('tr', {}, el('td', {}, ''), el('td', {}, t('tricks_won') + ': ' + totals.takers.tricks + ' – ' + totals.defenders.tricks), el('td', {}, ''),
        el('td', { class: 'num' }, String(totals.takers.points)), el('td', { class: 'num' }, String(totals.defenders.points)),
        el('td', { class: 'num' }, String(totals.takers.roem + totals.defenders.roem)), el('td', {}, ''))))),
    el('p', {}, el('strong', {}, t('revoke') + ': '), revoke),
    ...score);
}

/* ---- matchpoints ---- */

async function matchpoints(ev) {
  ev.preventDefault();
  const r = await api('api/matchpoints', { ruleset: $('mp-ruleset').value, csv: $('mp-csv').value });
  showError($('mp-error'), r.ok ? '' : r.body.error);
  show($('mp-result'), r.ok);
  if (!r.ok) return;
  const rows = r.body.rows;
  const boards = rows.some((x) => x.board !== undefined);
  const head = boards ? [t('board'), t('pair'), t('score'), t('matchpoints')] : [t('score'), t('matchpoints')];
  $('mp-result').replaceChildren(el('h2', {}, r.body.ruleset), el('div', { class: 'scroll' }, el('table', { class: 'sheet', id: 'mp-table' },
    el('thead', {}, el('tr', {}, head.map((x, i) => el('th', { class: i >= head.length - 2 ? 'num' : null }, x)))),
    el('tbody', {}, rows.map((x) => el('tr', {},
      boards ? [el('td', {}, x.board || ''), el('td', {}, x.pair || '')] : [],
      el('td', { class: 'num' }, String(x.score ?? x.entry)), el('td', { class: 'num mp' }, x.matchpoints === null ? '-' : String(x.matchpoints))))))));
}

function readFile(ev) {
  const file = ev.target.files[0];
  if (!file) return;
  const reader = new FileReader();
  reader.onload = () => { $('mp-csv').value = reader.result; };
  reader.readAsText(file);
}

/* ---- a session's results: a CSV sheet or a PBN file, a klaverjas ranking ---- */

const isPbn = (text) => /^\uFEFF?\s*[%[]/.test(text);

/* The form as the chosen ruleset needs it: the scoring method for bridge only. */
function resultsForm() {
  const kj = gameOf($('rs-ruleset').value) === 'klaverjas';
  show($('rs-method-field'), !kj);
  $('rs-hint').textContent = t(kj ? 'rs_hint_kj' : 'rs_hint');
}

async function results(ev) {
  ev.preventDefault();
  const ruleset = $('rs-ruleset').value, text = $('rs-text').value;
  const kind = gameOf(ruleset) === 'klaverjas' ? 'ranking' : isPbn(text) ? 'pbn' : 'session';
  const path = { ranking: 'api/ranking', pbn: 'api/pbn', session: 'api/session' }[kind];
  const request = kind === 'ranking' ? { ruleset, csv: text }
    : kind === 'pbn' ? { ruleset, pbn: text } : { ruleset, csv: text, method: $('rs-method').value };
  const r = await api(path, request);
  showError($('rs-error'), r.ok ? '' : r.body.error);
  /* a PBN file with mistakes: the mistakes, and the games read all the same */
  const shown = r.ok || (kind === 'pbn' && Array.isArray(r.body.games));
  state.results = shown ? { kind, ruleset, body: r.body, path, request, session: null } : null;
  if (shown && kind === 'pbn') state.results.session = await pbnSession(request);
  show($('rs-result'), shown);
  if (shown) renderResults();
}

/* A PBN file's ScoreTable rows ranked as a session by the library
 * (`arbiter pbn --ranking`); null when the file has none. */
async function pbnSession(request) {
  const r = await api('api/pbn', { ...request, ranking: true });
  return r.body.session || null;
}

/* A download of the results as the CLI prints them: the same request
 * answered in CSV by the library ("format": "csv"). */
async function downloadCsv(name, extra = {}) {
  const res = state.results;
  const r = await api(res.path, { ...res.request, ...extra, format: 'csv' });
  if (typeof r.body.csv === 'string') download(name, r.body.csv, 'text/csv');
  else showError($('rs-error'), r.body.error);
}

function download(name, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = el('a', { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

const ew = () => (state.lang === 'en' ? 'EW' : 'OW'); /* oost-west */
const num = (v) => (v === undefined || v === null ? '' : String(v));
const cell = (v, cls) => el('td', { class: cls || null }, v);
const numCell = (v, cls) => el('td', { class: 'num' + (cls ? ' ' + cls : '') }, num(v));
const head = (cols) => el('thead', {}, el('tr', {}, cols.map(([label, isNum]) => el('th', { class: isNum ? 'num' : null }, label))));

/* A session's rankings: each direction's (or everyone's), ties as "3=". */
/* What a side's figure is called in a session of this method (not matchpoints). */
const figureOf = (session) => (session.method === 'total'
  ? { key: 'points', label: t('points'), short: t('points') } : { key: 'imps', label: t('imps'), short: 'IMPs' });

function rankingTables(session, id) {
  const mp = session.method === 'matchpoints', fig = figureOf(session);
  return session.rankings.map((r) => {
    /* an event of several sections or stages: each field's rankings apart, named */
    const title = t('rs_ranking') + (r.direction === 'all' ? '' : ' ' + (r.direction === 'EW' ? ew() : r.direction)) +
      (r.field ? ' — ' + r.field : '');
    const tableId = id + (r.field ? '-' + r.field.replace(/[^A-Za-z0-9]+/g, '_') : '') + '-' + r.direction;
    /* the figure the pairs are ranked by first, then what it is made of */
    const cols = [[t('place')], [t('pair')], ...(mp ? [[t('percentage'), true], ['MP', true], [t('top'), true]] : [[fig.label, true]]), [t('boards'), true]];
    return [el('h3', {}, title), el('div', { class: 'scroll' }, el('table', { class: 'sheet ranking', id: tableId },
      head(cols),
      el('tbody', {}, r.pairs.map((p) => el('tr', { class: /=$/.test(p.place) ? 'tie' : null },
        cell(p.place, 'place'), cell(p.pair),
        mp ? [numCell(p.percentage, 'mp'), numCell(p.matchpoints), numCell(p.top)] : numCell(p[fig.key], 'mp'), numCell(p.boards))))))];
  });
}

/* The notes of a session: an artificial score that gave way to the side's
 * result on the other boards (12C2c), a board played fewer times. */
function sessionNotes(session) {
  const en = state.lang === 'en';
  const notes = [];
  for (const b of session.boards)
    for (const side of ['ns', 'ew']) {
      const s = b['session_' + side];
      if (!s) continue;
      const figure = s.percentage !== undefined ? s.percentage + '%' : s.imps + ' IMPs';
      notes.push(en
        ? `Board ${b.board}, ${side.toUpperCase()} pair ${b[side]} (${b['score_' + side]}): ${figure}, the pair's result on the session's other boards (${s.article})`
        : `Spel ${b.board}, ${side.toUpperCase()}-paar ${b[side]} (${b['score_' + side]}): ${figure}, het resultaat van het paar op de andere spellen van de zitting (${s.article})`);
    }
  for (const n of session.notes || []) {
    const how = n.factored
      ? (en ? `its matchpoints are brought to ${n.session} entries by ${n.method}` : `de matchpoints zijn omgerekend naar ${n.session} scores volgens ${n.method}`)
      : (en ? 'its matchpoints stand as compared' : 'de matchpoints blijven zoals vergeleken') + (n.method ? ' (' + n.method + ')' : '');
    const line = en
      ? `Board ${n.board} was played ${n.played} times, the session's other boards ${n.session}: ${how}`
      : `Spel ${n.board} is ${n.played} keer gespeeld, de andere spellen ${n.session} keer: ${how}`;
    const why = n.message ? pick(n.message, n.message_en) : '';
    notes.push(line + (n.articles ? ` (${n.articles})` : '') + (why ? '. ' + why : ''));
  }
  return notes;
}

function notesList(session) {
  const notes = sessionNotes(session);
  return notes.length ? [el('h3', {}, t('rs_notes')), el('ul', { class: 'messages notes', id: 'rs-notes' }, notes.map((n) => el('li', {}, n)))] : [];
}

/* Every board's figures; a row where an artificial score gave way (12C2c) marked. */
function boardsTable(session) {
  const mp = session.method === 'matchpoints', fig = figureOf(session);
  const cols = [[t('board')], ['NS'], [ew()], [t('score') + ' NS', true], [t('score') + ' ' + ew(), true],
    ...(mp ? [['MP NS', true], ['MP ' + ew(), true], ['% NS', true], ['% ' + ew(), true]]
      : [[fig.short + ' NS', true], [fig.short + ' ' + ew(), true]])];
  const mark = (b, side) => (b['session_' + side] ? ' ' + t('rs_adjusted_mark') : '');
  return el('details', { open: true }, el('summary', {}, t('rs_boards')), el('div', { class: 'scroll' }, el('table', { class: 'sheet', id: 'rs-boards' },
    head(cols),
    el('tbody', {}, session.boards.map((b) => el('tr', { class: b.session_ns || b.session_ew ? 'adjusted' : null },
      cell(b.board), cell(b.ns), cell(b.ew), numCell(b.score_ns), numCell(b.score_ew),
      mp ? [numCell(num(b.matchpoints_ns) + mark(b, 'ns')), numCell(num(b.matchpoints_ew) + mark(b, 'ew')), numCell(b.percentage_ns), numCell(b.percentage_ew)]
        : [numCell(num(b[fig.key + '_ns']) + mark(b, 'ns')), numCell(num(b[fig.key + '_ew']) + mark(b, 'ew'))]))))));
}

/* A ScoreTable row's pairs, "4–5" (north-south's first); "" for a game without. */
const pairsOf = (g) => (g.ns || g.ew ? (g.ns || '') + '–' + (g.ew || '') : '');

/* The rows of a PBN file where its own figures differ from arbiter's. */
function disagreements(games) {
  const rows = [];
  for (const g of games) {
    if (g.score_tag_ns !== undefined) rows.push({ g, column: 'Score', file: g.score_tag_ns, arbiter: g.score_ns });
    for (const d of g.disagreements || []) rows.push({ g, column: d.column, file: d.file, arbiter: d.arbiter });
  }
  return rows;
}

function pbnResult(res) {
  const games = res.body.games;
  const differ = disagreements(games);
  const compared = games.some((g) => g.disagreements !== undefined || g.score_tag_ns !== undefined);
  const parts = [el('h2', {}, res.ruleset + ' — PBN')];
  if (differ.length) {
    parts.push(el('h3', {}, t('rs_disagree')), el('div', { class: 'scroll' }, el('table', { class: 'sheet', id: 'rs-disagree' },
      head([[t('board') + ' · ' + t('rs_pairs')], [t('line'), true], [t('rs_column')], [t('rs_file_says'), true], [t('rs_arbiter_says'), true]]),
      el('tbody', {}, differ.map((d) => el('tr', { class: 'differs' }, cell(d.g.board + (pairsOf(d.g) ? ' · ' + pairsOf(d.g) : '')), numCell(d.g.line),
        cell(d.column), numCell(d.file), numCell(d.arbiter, 'mp')))))));
  } else if (compared) {
    parts.push(el('p', { id: 'rs-agree', class: 'final' }, t('rs_agree')));
  }
  if (res.session) parts.push(el('h3', {}, t('rs_pbn_ranking')), ...rankingTables(res.session, 'rs-ranking').flat(), ...notesList(res.session));
  /* a file scored in IMPs (its Scoring tag): IMPs in place of matchpoints */
  const imps = games.some((g) => g.imps_ns !== undefined);
  const figures = (g) => (imps ? [numCell(g.imps_ns, 'mp'), numCell(g.imps_ew)]
    : [numCell(g.matchpoints_ns, 'mp'), numCell(g.matchpoints_ew), numCell(g.percentage_ns), numCell(g.percentage_ew)]);
  parts.push(el('details', { open: true }, el('summary', {}, t('rs_games')), el('div', { class: 'scroll' }, el('table', { class: 'sheet', id: 'rs-games' },
    head([[t('board')], [t('line'), true], [t('rs_pairs')], [t('contract')], [t('declarer')], [t('score') + ' NS', true],
      ...(imps ? [['IMPs NS', true], ['IMPs ' + ew(), true]] : [['MP NS', true], ['MP ' + ew(), true], ['% NS', true], ['% ' + ew(), true]])]),
    el('tbody', {}, games.map((g) => el('tr', { class: g.problem !== undefined ? 'problem' : (g.disagreements || []).length || g.score_tag_ns !== undefined ? 'differs' : null },
      cell(g.board + (g.section ? ' ' + g.section : '')), numCell(g.line), cell(pairsOf(g)),
      g.problem !== undefined ? el('td', { colspan: imps ? 5 : 7, class: 'error' }, g.problem)
        : [cell(g.contract), cell(g.declarer), numCell(g.score_ns), ...figures(g)])))))));
  const buttons = [el('button', { type: 'button', id: 'rs-download-games', class: 'secondary',
    onclick: () => downloadCsv('results.csv') }, t('rs_download_games')),
  el('button', { type: 'button', id: 'rs-download-pbn', class: 'secondary', onclick: pbnExport }, t('rs_download_pbn'))];
  if (res.session) buttons.unshift(el('button', { type: 'button', id: 'rs-download-ranking', class: 'secondary',
    onclick: () => downloadCsv('ranking.csv', { ranking: true }) }, t('rs_download_ranking')));
  parts.push(el('div', { class: 'row' }, buttons));
  return parts;
}

async function pbnExport() {
  const r = await api('api/pbn', { pbn: state.results.request.pbn, export: true });
  showError($('rs-error'), r.ok ? '' : r.body.error);
  if (r.ok) download('export.pbn', r.body.pbn, 'application/x-pbn');
}

function renderResults() {
  const res = state.results;
  let parts;
  if (res.kind === 'pbn') {
    parts = pbnResult(res);
  } else if (res.kind === 'ranking') {
    const pairs = res.body.ranking;
    parts = [el('h2', {}, res.ruleset + ' — ' + t('rs_ranking')), el('div', { class: 'scroll' }, el('table', { class: 'sheet ranking', id: 'rs-kj-ranking' },
      head([[t('place')], [t('pair')], [t('boards'), true], [t('matchpoints'), true], [t('tops'), true], [t('points'), true], [t('tie_broken_by')]]),
      el('tbody', {}, pairs.map((p) => el('tr', { class: /=$/.test(p.place) ? 'tie' : null },
        cell(p.place, 'place'), cell(p.pair), numCell(p.boards), numCell(p.matchpoints, 'mp'), numCell(p.tops), numCell(p.points), cell(p.tie_broken_by || '')))))),
    el('div', { class: 'row' }, el('button', { type: 'button', id: 'rs-download-ranking', class: 'secondary',
      onclick: () => downloadCsv('ranking.csv') }, t('rs_download_ranking')))];
  } else {
    const session = res.body.session;
    const method = { matchpoints: t('rs_matchpoints'), butler: t('rs_butler'), cross: t('rs_cross'), total: t('rs_total') }[session.method] || session.method;
    parts = [el('h2', {}, res.ruleset + ' — ' + method), ...rankingTables(session, 'rs-ranking').flat(), ...notesList(session), boardsTable(session),
      el('div', { class: 'row' },
        el('button', { type: 'button', id: 'rs-download-ranking', class: 'secondary', onclick: () => downloadCsv('ranking.csv') }, t('rs_download_ranking')),
        el('button', { type: 'button', id: 'rs-download-boards', class: 'secondary', onclick: () => downloadCsv('boards.csv', { boards: true }) }, t('rs_download_boards')))];
  }
  $('rs-result').replaceChildren(...parts);
}

function readResultsFile(ev) {
  const file = ev.target.files[0];
  if (!file) return;
  const reader = new FileReader();
  reader.onload = () => { $('rs-text').value = reader.result; $('rs-text').dispatchEvent(new Event('input')); };
  reader.readAsText(file);
}

/* ---- club plugins (offline: loaded in the page) ---- */

function savedPlugins() {
  try {
    const list = JSON.parse(localStorage.getItem(PLUGINS) || '[]');
    return Array.isArray(list) ? list.filter((p) => p && typeof p.file === 'string' && typeof p.text === 'string') : [];
  } catch (e) { return []; }
}

function savePlugins(list) {
  try { localStorage.setItem(PLUGINS, JSON.stringify(list)); } catch (e) { /* private mode: kept until a reload */ }
}

/* The page's plugins made exactly list (in order): the errors of those that do not load. */
function loadPlugins(list) {
  for (const p of ArbiterOffline.plugins.list()) ArbiterOffline.plugins.remove(p.file);
  const errors = [];
  for (const p of list) {
    const r = ArbiterOffline.plugins.add(p.file, p.text, $('ruleset').value || state.ruleset);
    if (!r.ok) errors.push({ file: p.file, error: r.error });
  }
  state.plugins = ArbiterOffline.plugins.list();
  state.pluginFacts = {};
  return errors;
}

function renderPlugins() {
  const list = $('plugin-list');
  if (!list) return;
  $('plugins-summary').textContent = '— ' + (state.plugins.length ? state.plugins.map((p) => p.name || p.file).join(', ') : t('plugins_none'));
  list.replaceChildren(...state.plugins.map((p) => el('li', { 'data-file': p.file },
    el('strong', {}, p.name || p.file), ' ',
    el('span', { class: 'hint' }, p.rulesets.length ? t('plugin_for') + ' ' + p.rulesets.join(', ') : t('plugin_for_none')),
    el('span', { class: 'hash' }, p.file + ', ' + (p.hash || '')),
    el('button', { type: 'button', class: 'link remove-plugin', onclick: () => removePlugin(p.file) }, t('plugin_remove')))));
}

/* The file a director picked: loaded (one of the same name replaced), kept
 * for the next visit, and the ruling made again with it. A plugin that does
 * not load is shown with the CLI's message, and nothing changes. */
async function addPlugin(ev) {
  const file = ev.target.files[0];
  if (!file) return;
  const text = await file.text();
  ev.target.value = '';
  const before = savedPlugins();
  const wanted = [...before.filter((p) => p.file !== file.name), { file: file.name, text }];
  const failed = loadPlugins(wanted).find((e) => e.file === file.name);
  if (failed) {
    loadPlugins(before);
    showError($('plugin-error'), failed.error);
  } else {
    savePlugins(wanted);
    showError($('plugin-error'), '');
  }
  renderPlugins();
  if (!failed) await ruleAgain();
}

async function removePlugin(file) {
  const kept = savedPlugins().filter((p) => p.file !== file);
  loadPlugins(kept);
  savePlugins(kept);
  showError($('plugin-error'), '');
  renderPlugins();
  await ruleAgain(true);
}

/* The ruling under way, made again with the plugins now loaded. After a
 * plugin went, the answers to facts that are not the ruleset's go too (a
 * plugin still loaded asks its own again). */
async function ruleAgain(removed) {
  if (!state.ruleset) return;
  const d = details(state.ruleset);
  const known = new Set(d ? d.facts.map((f) => f.name) : []);
  if (removed) state.answers = state.answers.filter((a) => known.has(a.fact));
  state.correcting = null;
  await next();
}

/* The plugins kept from an earlier visit, loaded before the first ruling. */
function restorePlugins() {
  show($('plugins'), true);
  const saved = savedPlugins();
  const errors = loadPlugins(saved);
  if (errors.length) {
    savePlugins(saved.filter((p) => !errors.some((e) => e.file === p.file)));
    showError($('plugin-error'), errors.map((e) => e.error).join('\n'));
  }
  if (state.plugins.length) $('plugins').open = true;
  renderPlugins();
}

/* ---- contract score ---- */

async function contractScore(ev) {
  ev.preventDefault();
  const vul = document.querySelector('input[name="vul"]:checked').value === 'true';
  const r = await api('api/score', { ruleset: $('sc-ruleset').value, contract: $('sc-contract').value.trim(), vulnerable: vul });
  showError($('sc-error'), r.ok ? '' : r.body.error);
  show($('sc-result'), r.ok);
  if (!r.ok) return;
  $('sc-result').replaceChildren(el('h2', {}, r.body.contract + (vul ? ' (' + t('vulnerable') + ' ' + t('yes') + ')' : '')),
    el('ul', { class: 'messages' }, messageList(r.body)),
    el('p', { class: 'final' }, t('score_of') + ': ', el('strong', { id: 'sc-total' }, String(r.body.score))));
}

/* ---- start ---- */

function bind() {
  for (const b of document.querySelectorAll('[data-lang]')) b.addEventListener('click', () => {
    state.lang = b.dataset.lang;
    localStorage.setItem('arbiter-lang', state.lang);
    applyLanguage();
    if (state.graph) drawGraph();
  });
  window.addEventListener('hashchange', showTab);
  $('ruleset').addEventListener('change', () => switchEdition($('ruleset').value));
  $('restart').addEventListener('click', () => { state.answers = []; start($('ruleset').value); });
  $('choice-search').addEventListener('input', filterChoices);
  $('choice-search').addEventListener('keydown', searchKey);
  $('share').addEventListener('click', shareRuling);
  $('auction').addEventListener('change', () => { state.answers = []; start($('ruleset').value); });
  $('free-answer').addEventListener('submit', freeAnswer);
  $('back').addEventListener('click', back);
  $('result-back').addEventListener('click', back);
  $('compare-go').addEventListener('click', compare);
  $('graph-close').addEventListener('click', closeGraph);
  $('zoom-in').addEventListener('click', () => zoom(1.25));
  $('zoom-out').addEventListener('click', () => zoom(0.8));
  $('kj-form').addEventListener('submit', scoreKlaverjas);
  $('kj-example').addEventListener('click', () => fillKlaverjas(EXAMPLE_HAND));
  $('kj-clear').addEventListener('click', () => fillKlaverjas({ trump: 'H', taker: 'N', tricks: [] }));
  $('mp-form').addEventListener('submit', matchpoints);
  $('mp-file').addEventListener('change', readFile);
  $('sc-form').addEventListener('submit', contractScore);
  $('rs-form').addEventListener('submit', results);
  $('rs-file').addEventListener('change', readResultsFile);
  $('rs-ruleset').addEventListener('change', resultsForm);
  $('plugin-file').addEventListener('change', addPlugin);
}

/* The back end: a server that answers at api/ (`arbiter serve`), else the
 * WebAssembly module (a static host, or no network); ?backend=wasm or
 * ?backend=server chooses. Resolves to GET api/rulesets's answer. */
async function chooseBackend() {
  const wanted = new URLSearchParams(location.search).get('backend');
  /* with no network at all there is no server to ask */
  if (wanted !== 'wasm' && (navigator.onLine !== false || wanted === 'server')) {
    const r = await probeServer();
    if (r.ok || wanted === 'server' || typeof ArbiterOffline === 'undefined') return r;
  }
  try {
    /* the rule files are compiled now: a second or two on a phone */
    $('offline-note').textContent = t('loading');
    show($('offline-note'), true);
    await ArbiterOffline.start();
    $('offline-note').textContent = t('offline_mode');
    state.backend = 'wasm';
    document.body.dataset.backend = 'wasm';
    return ArbiterOffline.request('api/rulesets');
  } catch (e) {
    return { ok: false, status: 0, body: { error: t('needs_server') + ' (' + (e.message || e) + ')' } };
  }
}

/* GET api/rulesets from a server, given a few seconds; a static host's
 * page or no answer at all is no server. */
async function probeServer() {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), 3000);
  try {
    const res = await fetch('api/rulesets', { signal: abort.signal });
    const body = await res.json();
    if (res.ok && Array.isArray(body.rulesets)) return { ok: true, status: res.status, body };
    return { ok: false, status: res.status, body: { error: body.error || res.statusText } };
  } catch (e) {
    return { ok: false, status: 0, body: { error: t('needs_server') } };
  } finally {
    clearTimeout(timer);
  }
}

async function main() {
  bind();
  buildKlaverjasForm();
  applyLanguage();
  showTab();
  if ('serviceWorker' in navigator && location.protocol !== 'file:')
    navigator.serviceWorker.register('sw.js').catch(() => { /* the app works without; only not offline */ });
  const r = await chooseBackend();
  if (!r.ok) { showError($('load-error'), r.body.error); return; }
  document.body.dataset.backend = state.backend;
  show($('offline-note'), state.backend === 'wasm');
  state.rulesets = r.body.rulesets;
  const bridge = state.rulesets.filter((x) => x.game !== 'klaverjas');
  const rulings = bridge.length ? bridge : state.rulesets;
  const preferred = rulings.find((x) => x.name === 'bridge-2017') || rulings[0];
  fillSelect($('ruleset'), state.rulesets, preferred && preferred.name);
  fillSelect($('kj-ruleset'), state.rulesets.filter((x) => x.scores.hand));
  fillSelect($('mp-ruleset'), state.rulesets.filter((x) => x.scores.matchpoints));
  fillSelect($('sc-ruleset'), state.rulesets.filter((x) => x.scores.contract));
  fillSelect($('rs-ruleset'), state.rulesets.filter((x) => x.scores.matchpoints), preferred && preferred.name);
  resultsForm();
  if (state.backend === 'wasm') restorePlugins();
  document.body.dataset.ready = 'true';
  const restored = await restoreRuling();
  if (restored) {
    $('ruleset').value = restored;
    await start(restored);
  } else if (preferred) {
    await start(preferred.name);
  }
}

main();
