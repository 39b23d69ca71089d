/* graph.js — an article's decision graph, drawn from the DOT that
 * `arbiter graph` writes (core/tools/dot.c), without Graphviz: the DOT is read
 * back into nodes and edges, laid out in layers (each node below every node
 * that leads to it), ordered within a layer by the average place of its
 * neighbours to keep crossings down, and drawn as SVG. The path a ruling
 * took is marked. A readable list of the decisions is given beside it. */
'use strict';

const ArbiterGraph = (() => {
  const SVG = 'http://www.w3.org/2000/svg';
  const CHAR = 7.2, LINE = 15, PAD = 8, GAP_X = 24, GAP_Y = 70, MAX_CHARS = 34, EDGE_CHARS = 22;

  /* A DOT string literal as dot.c writes it: \" \\ and \n escapes. */
  function unquote(s) {
    return s.slice(1, -1).replace(/\\(.)/g, (m, c) => (c === 'n' ? '\n' : c));
  }

  const QUOTED = '"((?:[^"\\\\]|\\\\.)*)"';
  const NODE = new RegExp('^\\s*([nt]\\d+) \\[(.*)label=' + QUOTED + '\\];$');
  const EDGE = new RegExp('^\\s*([nt]\\d+) -> ([nt]\\d+) \\[label=' + QUOTED + '\\];$');
  const TITLE = new RegExp('^\\s*label=' + QUOTED + ';$');

  function parse(dot) {
    const g = { title: '', nodes: new Map(), edges: [], root: null };
    for (const line of dot.split('\n')) {
      let m;
      if ((m = EDGE.exec(line))) {
        g.edges.push({ from: m[1], to: m[2], label: unquote('"' + m[3] + '"') });
      } else if ((m = NODE.exec(line))) {
        g.nodes.set(m[1], { id: m[1], label: unquote('"' + m[3] + '"'), terminal: m[2].includes('shape=box') });
        if (!g.root) g.root = m[1]; /* dot.c writes the root first */
      } else if ((m = TITLE.exec(line))) {
        g.title = unquote('"' + m[1] + '"');
      }
    }
    return g;
  }

  /* The nodes and edges the ruling's decided_by facts lead along. */
  function path(g, decided) {
    const values = new Map(decided.map((d) => [d.fact, String(d.value)]));
    const on = { nodes: new Set(), edges: new Set() };
    let id = g.root;
    for (let steps = 0; id && steps < g.nodes.size; steps++) {
      on.nodes.add(id);
      const node = g.nodes.get(id);
      if (!node || node.terminal || !values.has(node.label)) break;
      const want = values.get(node.label);
      const e = g.edges.findIndex((x) => x.from === id && x.label.split(', ').includes(want));
      if (e < 0) break;
      on.edges.add(e);
      id = g.edges[e].to;
    }
    return on;
  }

  /* Layers: the longest path from the root (the graph has no cycles). */
  function layers(g) {
    const rank = new Map([[g.root, 0]]);
    const order = topological(g);
    for (const id of order)
      for (const e of g.edges)
        if (e.from === id && rank.has(id)) rank.set(e.to, Math.max(rank.get(e.to) || 0, rank.get(id) + 1));
    const rows = [];
    for (const id of order) {
      const r = rank.get(id) || 0;
      (rows[r] = rows[r] || []).push(id);
    }
    return rows.filter(Boolean);
  }

  function topological(g) {
    const seen = new Set(), out = [];
    const kids = new Map();
    for (const e of g.edges) (kids.get(e.from) || kids.set(e.from, []).get(e.from)).push(e.to);
    const visit = (id) => {
      if (seen.has(id)) return;
      seen.add(id);
      for (const k of kids.get(id) || []) visit(k);
      out.push(id);
    };
    visit(g.root);
    for (const id of g.nodes.keys()) visit(id);
    return out.reverse();
  }

  /* Reorders each layer by the mean position of its neighbours in the
   * layer above (then below), a few times over. */
  function order(g, rows) {
    const pos = new Map();
    const place = () => rows.forEach((row) => row.forEach((id, i) => pos.set(id, i / Math.max(1, row.length - 1))));
    const ups = new Map(), downs = new Map();
    for (const e of g.edges) {
      (ups.get(e.to) || ups.set(e.to, []).get(e.to)).push(e.from);
      (downs.get(e.from) || downs.set(e.from, []).get(e.from)).push(e.to);
    }
    const mean = (ids, id) => (ids && ids.length ? ids.reduce((s, x) => s + pos.get(x), 0) / ids.length : pos.get(id));
    place();
    for (let sweep = 0; sweep < 6; sweep++) {
      const down = sweep % 2 === 0;
      const seq = down ? rows.slice(1) : rows.slice(0, -1).reverse();
      for (const row of seq) {
        const key = new Map(row.map((id) => [id, mean(down ? ups.get(id) : downs.get(id), id)]));
        row.sort((a, b) => key.get(a) - key.get(b));
        row.forEach((id, i) => pos.set(id, i / Math.max(1, row.length - 1)));
      }
    }
  }

  function lines(label) {
    return label.split('\n').map((l) => (l.length > MAX_CHARS ? l.slice(0, MAX_CHARS - 1) + '…' : l));
  }

  function shortEdge(label) {
    if (label.length <= EDGE_CHARS) return label;
    const parts = label.split(', ');
    return parts.length > 2 ? parts[0] + ' … ' + parts[parts.length - 1] + ' (' + parts.length + ')' : label.slice(0, EDGE_CHARS - 1) + '…';
  }

  function layout(g) {
    const rows = layers(g);
    order(g, rows);
    const box = new Map();
    for (const [id, n] of g.nodes) {
      const ls = lines(n.label);
      box.set(id, { lines: ls, w: Math.max(...ls.map((l) => l.length)) * CHAR + 2 * PAD, h: ls.length * LINE + 2 * PAD });
    }
    const widths = rows.map((row) => row.reduce((s, id) => s + box.get(id).w, 0) + GAP_X * (row.length - 1));
    const width = Math.max(...widths, 200) + 2 * GAP_X;
    let y = GAP_X;
    rows.forEach((row, r) => {
      let x = (width - widths[r]) / 2;
      const h = Math.max(...row.map((id) => box.get(id).h));
      for (const id of row) {
        const b = box.get(id);
        Object.assign(b, { x, y: y + (h - b.h) / 2 });
        x += b.w + GAP_X;
      }
      y += h + GAP_Y;
    });
    return { box, width, height: y - GAP_Y + GAP_X };
  }

  function svgEl(tag, attrs, text) {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function bezier(t, p0, p1, p2, p3) {
    const u = 1 - t;
    const w = [u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t];
    return [0, 1].map((k) => w[0] * p0[k] + w[1] * p1[k] + w[2] * p2[k] + w[3] * p3[k] - (k ? 3 : 0));
  }

  function drawEdge(root, e, i, box, on) {
    const a = box.get(e.from), b = box.get(e.to);
    if (!a || !b) return;
    const x1 = a.x + a.w / 2, y1 = a.y + a.h, x2 = b.x + b.w / 2, y2 = b.y;
    const mid = (y1 + y2) / 2;
    const cls = 'edge' + (on.edges.has(i) ? ' on-path' : '');
    const group = svgEl('g', { class: cls });
    group.append(svgEl('title', {}, e.label));
    group.append(svgEl('path', { d: `M${x1},${y1} C${x1},${mid} ${x2},${mid} ${x2},${y2 - 6}`, 'marker-end': 'url(#arrow)' }));
    /* The label sits two thirds down the curve, where edges that leave one
     * node have spread out towards their own children. */
    const [lx, ly] = bezier(0.68, [x1, y1], [x1, mid], [x2, mid], [x2, y2 - 6]);
    group.append(svgEl('text', { x: lx, y: ly, 'text-anchor': 'middle', class: 'edge-label' }, shortEdge(e.label)));
    root.append(group);
  }

  function drawNode(root, n, b, on) {
    const cls = 'node' + (n.terminal ? ' terminal' : '') + (on.nodes.has(n.id) ? ' on-path' : '');
    const group = svgEl('g', { class: cls, 'data-id': n.id });
    group.append(svgEl('title', {}, n.label));
    group.append(svgEl('rect', { x: b.x, y: b.y, width: b.w, height: b.h, rx: n.terminal ? 8 : 3 }));
    b.lines.forEach((l, k) => group.append(svgEl('text', { x: b.x + PAD, y: b.y + PAD + LINE * (k + 0.8), class: k === 0 && n.terminal ? 'trail-line' : '' }, l)));
    root.append(group);
  }

  function svg(g, on, zoom) {
    const { box, width, height } = layout(g);
    const root = svgEl('svg', { xmlns: SVG, viewBox: `0 0 ${width} ${height}`, width: Math.round(width * zoom), height: Math.round(height * zoom), class: 'decision-graph', role: 'img' });
    root.append(svgEl('title', {}, g.title));
    const defs = svgEl('defs', {});
    const marker = svgEl('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 8, markerHeight: 8, markerUnits: 'userSpaceOnUse', orient: 'auto-start-reverse' });
    marker.append(svgEl('path', { d: 'M0,0 L10,5 L0,10 z' }));
    defs.append(marker);
    root.append(defs);
    g.edges.forEach((e, i) => { if (!on.edges.has(i)) drawEdge(root, e, i, box, on); });
    g.edges.forEach((e, i) => { if (on.edges.has(i)) drawEdge(root, e, i, box, on); }); /* the path on top */
    for (const [id, n] of g.nodes) drawNode(root, n, box.get(id), on);
    return root;
  }

  /* The decisions in words: per fact tested, where each value leads. */
  function list(g, on) {
    const name = (id) => {
      const n = g.nodes.get(id);
      return n ? n.label.replace(/\n/g, '; ') : id;
    };
    const out = [];
    for (const id of topological(g)) {
      const n = g.nodes.get(id);
      if (!n || n.terminal) continue;
      const ways = g.edges.map((e, i) => ({ e, i })).filter(({ e }) => e.from === id);
      out.push({ text: n.label + ': ' + ways.map(({ e }) => e.label + ' → ' + name(e.to)).join(' | '), onPath: on.nodes.has(id) });
    }
    return out;
  }

  return { parse, path, svg, list };
})();
