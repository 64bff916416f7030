// SPDX-License-Identifier: LGPL-2.1-or-later
// perfev report --html: the flame graph, the top functions and the run's
// description, drawn from the profile embedded in the page as
//   strings: every name once;
//   frames:  [name, dso, kind] flattened, indexes into strings; kind is
//            0 user, 1 kernel, 2 unresolved, plus 4 when inlined;
//   nodes:   the call trees, 4 numbers a node, parents first: how many
//            nodes back its parent is (0: the root of an event), its frame
//            (the root: the event), its self samples and self count;
//   dropped: the paths merged into one node per parent as too small to draw.
// Tree nodes name a frame by its index, or a command by NF + its string.
'use strict';
(function () {
	var $ = function (id) {
		return document.getElementById(id);
	};
	var D = JSON.parse($('perfev-data').textContent);
	var S = D.strings, FR = D.frames, NF = FR.length / 3;
	var ROW = 17, MAXROWS = 1800, TOPROWS = 500;
	var summary = $('summary');
	var KINDS = ['user', 'kernel', 'unknown', 'command'];

	function name(f) {
		return f < NF ? S[FR[3 * f]] : S[f - NF];
	}
	function dso(f) {
		return f < NF ? S[FR[3 * f + 1]] : '';
	}
	function kind(f) {
		return f < NF ? FR[3 * f + 2] & 3 : 3;
	}
	function pct(v, of) {
		return of > 0 ? ((100 * v) / of).toFixed(2) : '0.00';
	}
	function fmtInt(n) {
		return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
	}

	// ---- colours: a hue band per kind, varied by a hash of the name
	var colorCache = [];
	function hash(s) {
		var h = 2166136261;
		for (var i = 0; i < s.length; i++)
			h = Math.imul(h ^ s.charCodeAt(i), 16777619);
		return (h >>> 0) / 4294967296;
	}
	function color(f) {
		var c = colorCache[f];
		if (c)
			return c;
		var h = hash(name(f)), k = kind(f), lift = k !== 3 && FR[3 * f + 2] & 4 ? 14 : 0;
		if (k === 0)
			c = 'hsl(' + Math.round(8 + 36 * h) + ',' + Math.round(72 + 18 * h) + '%,' +
				Math.round(58 + 8 * h + lift) + '%)';
		else if (k === 1)
			c = 'hsl(' + Math.round(185 + 25 * h) + ',52%,' + Math.round(52 + 12 * h + lift) + '%)';
		else if (k === 2)
			c = 'hsl(210,5%,' + Math.round(64 + 10 * h) + '%)';
		else
			c = 'hsl(' + Math.round(262 + 14 * h) + ',38%,74%)';
		return (colorCache[f] = c);
	}

	// ---- diff mode (perfev diff --html): D.diff = {base, new, base_file,
	// new_file} names the baseline's event and the new one.  Its view (the
	// event selector's last entry, shown first) draws the new event's tree,
	// each frame coloured by the change of its share of the event (with its
	// callees) against the same call path in the baseline: red, more of the
	// samples than in the baseline; blue, fewer; grey, about the same.  The
	// table adds each function's self share in both, as perfev diff's table
	// counts them, and the changes.  Either event alone has the normal colours.
	var DF = { on: false, TB: null, at: null, chg: null, max: 0, ths: null, legend: null, normal: null, sort: null };
	var DIFF_KEYS = { base: 1, neu: 1, change: 1, absChange: 1, tchange: 1 };
	// The event that show(@e) builds: @e === nev is the diff view.
	function diffEvent(e) {
		if (!D.diff)
			return e;
		if (!DF.ths)
			diffInit();
		DF.on = e === nev;
		DF.ths.forEach(function (th) {
			th.hidden = !DF.on;
		});
		// (a legend's display: flex would outdo the hidden attribute)
		DF.legend.style.display = DF.on ? '' : 'none';
		DF.normal.style.display = DF.on ? 'none' : '';
		// The diff view's sort, kept while either event is shown alone.
		if (!DF.on && DIFF_KEYS[sortKey]) {
			DF.sort = [sortKey, sortDir];
			sortKey = 'self';
			sortDir = -1;
		} else if (DF.on && DF.sort) {
			sortKey = DF.sort[0];
			sortDir = DF.sort[1];
			DF.sort = null;
		}
		sel.value = e;
		summary.setAttribute('data-diff', '1');
		summary.setAttribute('data-diff-view', DF.on ? '1' : '0');
		return DF.on ? D.diff.new : e;
	}
	function diffInit() {
		var files = [D.diff.base_file, D.diff.new_file];
		[D.diff.base, D.diff.new].forEach(function (e, i) {
			if (sel.options[e])
				sel.options[e].textContent = (i ? 'new: ' : 'baseline: ') + D.events[e].name + ' (' +
					files[i] + ')' + (evHas[e] ? '' : ' (no samples)');
		});
		var o = document.createElement('option');
		o.value = nev;
		o.textContent = 'difference: new against the baseline';
		sel.appendChild(o);
		var head = $('top').tHead.rows[0];
		DF.ths = [['base', 'Baseline %', 'Self share in the baseline, as perfev diff counts it'],
			['neu', 'New %', 'Self share in the new profile'],
			['change', 'Change', 'New % minus Baseline %, in points (perfev diff\'s Delta)'],
			['tchange', 'Total change', 'The change of the total share (with callees), in points']
		].map(function (c) {
			var th = document.createElement('th');
			th.className = 'num';
			th.setAttribute('data-key', c[0]);
			th.textContent = c[1];
			th.title = c[2];
			head.appendChild(th);
			return th;
		});
		DF.normal = document.querySelector('#graph .legend');
		DF.legend = document.createElement('span');
		DF.legend.className = 'legend';
		DF.normal.parentNode.appendChild(DF.legend);
		document.querySelector('header h1').textContent = 'perfev diff';
		document.title = 'perfev diff';
		sortKey = 'absChange';
	}
	// Per node of T: the baseline's node on the same call path (-1: none) and
	// the change of the share; then the functions' rows @list (the new
	// event's) with the baseline's, matched by name and object.
	function diffRows(list) {
		if (!DF.on)
			return list;
		if (!DF.TB)
			DF.TB = build(D.diff.base);
		var TB = DF.TB, K = NF + S.length, key = new Map(), n;
		for (n = 1; n < TB.n; n++)
			key.set(TB.par[n] * K + TB.fr[n], n);
		var at = new Int32Array(T.n), chg = new Float64Array(T.n), up = -1, down = -1;
		DF.max = 0;
		for (n = 0; n < T.n; n++) {
			var b = n === 0 ? 0 : at[T.par[n]] < 0 ? undefined : key.get(at[T.par[n]] * K + T.fr[n]);
			at[n] = b === undefined ? -1 : b;
			chg[n] = T.val[n] / T.whole - (b === undefined ? 0 : TB.val[b] / TB.whole);
			if (n === 0 || T.fr[n] >= NF)
				continue;
			DF.max = Math.max(DF.max, Math.abs(chg[n]));
			if (up < 0 || chg[n] > chg[up])
				up = n;
			if (down < 0 || chg[n] < chg[down])
				down = n;
		}
		DF.at = at;
		DF.chg = chg;
		DF.legend.innerHTML = '';
		[['hsl(0,80%,55%)', 'more of the samples than in the baseline'], ['hsl(215,80%,55%)', 'fewer'],
			['hsl(0,0%,85%)', 'about the same']].forEach(function (l) {
			var s = document.createElement('span'), i = document.createElement('i');
			i.style.background = l[0];
			s.appendChild(i);
			s.appendChild(document.createTextNode(l[1]));
			DF.legend.appendChild(s);
		});
		DF.legend.appendChild(document.createTextNode('width: the new profile; colour: the change of ' +
			'the share with callees, deepest at a change of ' + (100 * DF.max).toFixed(2) + ' points'));
		summary.setAttribute('data-up', up > 0 ? name(T.fr[up]) : '');
		summary.setAttribute('data-up-color', up > 0 ? diffColor(up) : '');
		summary.setAttribute('data-down', down > 0 ? name(T.fr[down]) : '');
		summary.setAttribute('data-down-color', down > 0 ? diffColor(down) : '');
		// The baseline's functions: functions() over its tree.
		var keepT = T, keepIx = fnIndex;
		T = TB;
		var bl = functions(D.diff.base), inBase = new Map(), inNew = new Set(), top = null;
		T = keepT;
		fnIndex = keepIx;
		bl.forEach(function (r) {
			inBase.set(r.id, r);
		});
		list.forEach(function (r) {
			inNew.add(r.id);
		});
		// The functions gone from the new profile, too.
		bl.forEach(function (r) {
			if (!inNew.has(r.id))
				list.push({ id: r.id, name: r.name, dso: r.dso, self: 0, total: 0, selfS: 0, totalS: 0 });
		});
		list.forEach(function (r) {
			var o = inBase.get(r.id);
			r.base = o ? o.self / TB.whole : 0;
			r.neu = r.self / T.whole;
			r.change = r.neu - r.base;
			r.absChange = Math.abs(r.change);
			r.tchange = r.total / T.whole - (o ? o.total / TB.whole : 0);
			if (!top || r.absChange > top.absChange)
				top = r;
		});
		if (top) {
			summary.setAttribute('data-top-change', top.name);
			summary.setAttribute('data-top-change-pct', signed(top.change));
		}
		return list;
	}
	function signed(v) {
		return (v >= 0 ? '+' : '-') + (100 * Math.abs(v)).toFixed(2);
	}
	function diffColor(n) {
		var c = DF.chg[n], m = Math.abs(c);
		if (m < 0.001)
			return 'hsl(0,0%,85%)';
		m = Math.min(1, m / Math.max(DF.max, 0.02));
		return 'hsl(' + (c > 0 ? 0 : 215) + ',' + Math.round(45 + 40 * m) + '%,' +
			Math.round(88 - 38 * m) + '%)';
	}
	function diffTip(n) {
		var b = DF.at[n];
		line(tip, 'baseline: ' + (b < 0 ? '0.00% (no such call path)' : pct(DF.TB.val[b], DF.TB.whole) +
			'%, ' + fmtInt(DF.TB.smp[b]) + ' samples'));
		line(tip, 'new: ' + pct(T.val[n], T.whole) + '%, change: ' + signed(DF.chg[n]) + ' points');
	}
	function diffCells(tr, r) {
		cell(tr, pct(r.base, 1), 'num');
		cell(tr, pct(r.neu, 1), 'num');
		cell(tr, signed(r.change), 'num');
		cell(tr, signed(r.tchange), 'num');
	}
	function diffMeta(dl) {
		[['baseline', D.diff.base_file], ['new', D.diff.new_file]].forEach(function (it) {
			var dt = document.createElement('dt'), dd = document.createElement('dd');
			dt.textContent = it[0];
			dd.textContent = it[1];
			dl.appendChild(dt);
			dl.appendChild(dd);
		});
		$('input').textContent = D.diff.base_file + ' \u2192 ' + D.diff.new_file;
	}

	// ---- the call trees' nodes, decoded once
	var ND = D.nodes, NN = ND.length / 4, NP = new Int32Array(NN), NFR = new Int32Array(NN);
	var NEV = new Int32Array(NN);
	for (var i0 = 0; i0 < NN; i0++) {
		var back = ND[4 * i0];
		NP[i0] = back ? i0 - back : -1;
		NFR[i0] = ND[4 * i0 + 1];
		NEV[i0] = back ? NEV[NP[i0]] : NFR[i0];
	}

	// ---- the events that have samples, and the one shown
	var nev = D.events.length, evHas = [];
	for (i0 = 0; i0 < NN; i0++)
		if (ND[4 * i0 + 2] > 0)
			evHas[NEV[i0]] = true;
	var ev = 0;
	while (ev < nev && !evHas[ev])
		ev++;
	if (ev === nev)
		ev = 0;
	if (D.diff)
		ev = nev;

	// ---- the call tree of one event, in flat arrays
	var T, zoom = 0, matchRe = null, frameMatch = null, rows = [];
	// An icicle (roots at the top) unless asked for a flame graph (roots at
	// the bottom): the first screen shows the roots whatever the depth.
	var flame = false;

	// @vals: the self samples and counts of every node (the time range's), else the data's.
	function build(e, vals) {
		// The event's nodes, renumbered from its root (node 0).
		var loc = new Int32Array(NN), N = 0;
		for (var i = 0; i < NN; i++)
			loc[i] = NEV[i] === e ? N++ : -1;
		var par = new Int32Array(Math.max(N, 1)), fr = new Int32Array(Math.max(N, 1));
		var dep = new Int32Array(Math.max(N, 1)), val = new Float64Array(Math.max(N, 1));
		var smp = new Float64Array(Math.max(N, 1)), slf = new Float64Array(Math.max(N, 1));
		var slfS = new Float64Array(Math.max(N, 1)), maxDepth = 0;
		par[0] = fr[0] = -1;
		for (i = 0; i < NN; i++) {
			var n = loc[i];
			if (n < 0)
				continue;
			slfS[n] = smp[n] = vals ? vals[0][i] : ND[4 * i + 2];
			slf[n] = val[n] = vals ? vals[1][i] : ND[4 * i + 3];
			if (NP[i] < 0)
				continue;
			par[n] = loc[NP[i]];
			fr[n] = NFR[i];
			dep[n] = dep[par[n]] + 1;
			if (dep[n] > maxDepth)
				maxDepth = dep[n];
		}
		if (N === 0)
			N = 1;
		for (n = N - 1; n > 0; n--) {
			val[par[n]] += val[n];
			smp[par[n]] += smp[n];
		}
		// Children in one block per node, sorted by name as flame graphs are.
		var start = new Int32Array(N + 1), kids = new Int32Array(N > 0 ? N - 1 : 0);
		for (var a = 1; a < N; a++)
			start[par[a] + 1]++;
		for (a = 0; a < N; a++)
			start[a + 1] += start[a];
		var fill = start.slice(0, N);
		for (a = 1; a < N; a++)
			kids[fill[par[a]]++] = a;
		var byName = function (x, y) {
			var u = name(fr[x]), v = name(fr[y]);
			return u < v ? -1 : u > v ? 1 : x - y;
		};
		for (a = 0; a < N; a++)
			if (start[a + 1] - start[a] > 1)
				kids.subarray(start[a], start[a + 1]).sort(byName);
		var evp = D.events[e] ? D.events[e].period : 0;
		return {
			par: par, fr: fr, val: val, smp: smp, slf: slf, slfS: slfS, dep: dep,
			start: start, kids: kids, n: N, maxDepth: maxDepth,
			// Shares of the whole event, as the text report gives them; of the time range's.
			whole: !vals && evp >= val[0] ? evp : val[0]
		};
	}

	// ---- drawing
	var cv = $('flame'), ctx = cv.getContext('2d'), wrap = $('wrap'), W = 0, H = 0, charW = 7, drawn = 0;

	function ancestors(n) {
		var a = [];
		for (; n > 0; n = T.par[n])
			a.push(n);
		return a;
	}

	// Canvas @c made @w x @h CSS pixels at the screen's density, cleared: its context.
	function sizeCanvas(c, w, h, font) {
		var g = c.getContext('2d'), dpr = window.devicePixelRatio || 1;
		c.width = Math.round(w * dpr);
		c.height = Math.round(h * dpr);
		c.style.width = w + 'px';
		c.style.height = h + 'px';
		g.setTransform(dpr, 0, 0, dpr, 0, 0);
		g.clearRect(0, 0, w, h);
		g.font = font + 'px ui-monospace, Menlo, Consolas, monospace';
		g.textBaseline = 'middle';
		return g;
	}

	function draw() {
		W = Math.max(200, wrap.clientWidth);
		var depth = Math.min(T.maxDepth, MAXROWS);
		H = (depth + 1) * ROW;
		sizeCanvas(cv, W, H, 12);
		charW = ctx.measureText('mmmmmmmmmm').width / 10 || 7;
		rows = [];
		drawn = 0;
		for (var d = 0; d <= depth; d++)
			rows.push([]);
		// The zoomed frame and what is below it span the width, faded.
		var chain = ancestors(zoom);
		chain.push(0);
		for (var i = 0; i < chain.length; i++)
			box(chain[i], 0, W, i > 0);
		var v0 = T.val[zoom];
		summary.setAttribute('data-drawn', drawn);
		if (v0 <= 0)
			return;
		// Depth first from the zoomed frame's children; pos holds each one's x.
		var scale = W / v0, stack = [], pos = [], x = 0;
		for (var k = T.start[zoom]; k < T.start[zoom + 1]; k++) {
			stack.push(T.kids[k]);
			pos.push(x);
			x += T.val[T.kids[k]] * scale;
		}
		while (stack.length) {
			var n = stack.pop(), nx = pos.pop(), w = T.val[n] * scale;
			if (w < 0.35 || T.dep[n] > depth)
				continue;
			box(n, nx, w, false);
			var cx = nx;
			for (k = T.start[n]; k < T.start[n + 1]; k++) {
				var c = T.kids[k];
				stack.push(c);
				pos.push(cx);
				cx += T.val[c] * scale;
			}
		}
		summary.setAttribute('data-drawn', drawn);
		rootShown();
	}

	// Where the root's bar is in the window: a flame graph taller than the
	// window is scrolled to its root once drawn.
	function rootShown() {
		var top = cv.getBoundingClientRect().top + rowY(0);
		if (flame && (top + ROW > window.innerHeight || top < 0)) {
			window.scrollBy(0, top + ROW - window.innerHeight + 8);
			top = cv.getBoundingClientRect().top + rowY(0);
		}
		summary.setAttribute('data-view', flame ? 'flame' : 'icicle');
		summary.setAttribute('data-root-y', Math.round(top));
		summary.setAttribute('data-window-h', window.innerHeight);
	}
	function setView(f) {
		flame = f;
		$('view').textContent = flame ? 'Icicle' : 'Flame graph';
		draw();
	}
	$('view').addEventListener('click', function () {
		setView(!flame);
	});

	// The top of depth @d's row on the canvas.
	function rowY(d) {
		return flame ? H - (d + 1) * ROW : d * ROW;
	}

	function box(n, x, w, faded) {
		var d = T.dep[n], y = rowY(d), f = T.fr[n];
		if (d >= rows.length)
			return;
		rows[d].push(n, x, w);
		ctx.globalAlpha = faded ? 0.55 : 1;
		ctx.fillStyle = n === 0 ? '#d9dde2' : frameMatch && frameMatch[n] ? '#d61ad6' :
			DF.on ? diffColor(n) : color(f);
		ctx.fillRect(x, y, w > 2 ? w - 1 : w, ROW - 1);
		drawn++;
		ctx.globalAlpha = 1;
		if (w < 3 * charW)
			return;
		var label = n === 0 ? 'all' : name(f), fit = Math.floor((w - 6) / charW);
		if (label.length > fit)
			label = fit > 2 ? label.slice(0, fit - 2) + '..' : '';
		if (!label)
			return;
		ctx.fillStyle = faded ? '#44505c' : '#111';
		ctx.fillText(label, x + 3, y + ROW / 2);
	}

	function hit(ev) {
		var r = cv.getBoundingClientRect(), x = ev.clientX - r.left, y = ev.clientY - r.top;
		var d = Math.floor((flame ? H - y : y) / ROW), row = rows[d];
		if (!row)
			return -1;
		for (var i = 0; i < row.length; i += 3)
			if (x >= row[i + 1] && x < row[i + 1] + row[i + 2])
				return row[i];
		return -1;
	}

	// ---- the hover tooltip
	var tip = $('tip');
	function line(parent, text) {
		var e = document.createElement('div');
		e.textContent = text;
		parent.appendChild(e);
	}
	function showTip(n, ev) {
		var f = T.fr[n];
		tip.textContent = '';
		var b = document.createElement('b');
		b.textContent = n === 0 ? 'all' : name(f);
		tip.appendChild(b);
		if (n > 0 && f < NF) {
			line(tip, 'shared object: ' + dso(f));
			line(tip, KINDS[kind(f)] + (FR[3 * f + 2] & 4 ? ', inlined' : ''));
		} else if (n > 0) {
			line(tip, 'command');
		}
		line(tip, 'samples: ' + fmtInt(T.smp[n]) + ' (self ' + fmtInt(T.slfS[n]) + ')');
		line(tip, pct(T.val[n], T.whole) + '% of the event' +
			(zoom > 0 ? ', ' + pct(T.val[n], T.val[zoom]) + '% of the zoomed frame' : '') +
			(T.slf[n] > 0 ? '; self ' + pct(T.slf[n], T.whole) + '%' : ''));
		if (DF.on)
			diffTip(n);
		tip.hidden = false;
		var tx = ev.clientX + 14, ty = ev.clientY + 14, tw = tip.offsetWidth, th = tip.offsetHeight;
		if (tx + tw > window.innerWidth - 4)
			tx = Math.max(4, ev.clientX - tw - 10);
		if (ty + th > window.innerHeight - 4)
			ty = Math.max(4, ev.clientY - th - 10);
		tip.style.left = tx + 'px';
		tip.style.top = ty + 'px';
	}
	cv.addEventListener('mousemove', function (ev) {
		var n = hit(ev);
		if (n < 0)
			tip.hidden = true;
		else
			showTip(n, ev);
	});
	cv.addEventListener('mouseleave', function () {
		tip.hidden = true;
	});
	cv.addEventListener('click', function (ev) {
		var n = hit(ev);
		if (n >= 0)
			setZoom(n);
	});
	// Keys: / searches, Esc clears the search then the zoom, f flips the graph,
	// arrows move the zoom.
	document.addEventListener('keydown', function (ev) {
		var typing = ev.target === search;
		if (ev.key === 'Escape' && typing && search.value) {
			search.value = '';
			applySearch();
		} else if (ev.key === 'Escape' && zoom > 0) {
			setZoom(0);
		} else if (ev.key === 'Escape' && range) {
			setRange(null);
		} else if (ev.key === 'Escape' && typing) {
			search.blur();
		} else if (typing || ev.ctrlKey || ev.metaKey || ev.altKey) {
			return;
		} else if (ev.key === '/') {
			search.focus();
		} else if (ev.key === 'f') {
			setView(!flame);
		} else if (ev.key === 'ArrowUp' || ev.key === 'ArrowDown' || ev.key === 'ArrowLeft' ||
			ev.key === 'ArrowRight') {
			step(ev.key);
		} else {
			return;
		}
		ev.preventDefault();
	});
	$('reset').addEventListener('click', function () {
		setZoom(0);
	});

	// Arrows move the zoom: towards the root, into the widest child, to a sibling.
	function step(key) {
		var down = key === (flame ? 'ArrowUp' : 'ArrowDown'), up = key === (flame ? 'ArrowDown' : 'ArrowUp');
		var n = zoom, p = T.par[n], k;
		if (up && n > 0) {
			setZoom(p);
		} else if (down) {
			var best = -1;
			for (k = T.start[n]; k < T.start[n + 1]; k++)
				if (best < 0 || T.val[T.kids[k]] > T.val[best])
					best = T.kids[k];
			if (best > 0)
				setZoom(best);
		} else if (n > 0 && (key === 'ArrowLeft' || key === 'ArrowRight')) {
			for (k = T.start[p]; k < T.start[p + 1] && T.kids[k] !== n; k++)
				;
			k += key === 'ArrowLeft' ? -1 : 1;
			if (k >= T.start[p] && k < T.start[p + 1])
				setZoom(T.kids[k]);
		}
	}

	function setZoom(n) {
		zoom = n;
		$('reset').disabled = n === 0;
		var zi = $('zoominfo');
		if (n === 0) {
			zi.textContent = 'Click a frame to zoom into it.';
			summary.removeAttribute('data-zoom');
			summary.removeAttribute('data-zoom-pct');
		} else {
			var p = pct(T.val[n], T.whole);
			zi.textContent = 'Zoomed into ' + name(T.fr[n]) + ': ' + p + '% of the event, ' +
				fmtInt(T.smp[n]) + ' samples. Click a faded frame or press Esc to zoom out; arrows move.';
			summary.setAttribute('data-zoom', name(T.fr[n]));
			summary.setAttribute('data-zoom-pct', p);
		}
		draw();
	}

	// ---- search: frames whose name matches, and the share they cover
	var search = $('search');
	function compile(text) {
		try {
			return new RegExp(text);
		} catch (e) {
			return new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
		}
	}
	function applySearch() {
		var text = search.value;
		if (!text) {
			matchRe = null;
			frameMatch = null;
			$('match').textContent = '';
			summary.removeAttribute('data-search');
			summary.removeAttribute('data-search-pct');
			draw();
			return;
		}
		matchRe = compile(text);
		var names = new Uint8Array(NF + S.length);
		var cache = new Int8Array(NF + S.length);
		frameMatch = new Uint8Array(T.n);
		var covered = 0, nodes = 0, stack = [0];
		for (var n = 1; n < T.n; n++) {
			var f = T.fr[n];
			if (!cache[f]) {
				names[f] = matchRe.test(name(f)) ? 1 : 0;
				cache[f] = 1;
			}
			if (names[f]) {
				frameMatch[n] = 1;
				nodes++;
			}
		}
		// A match under a match is counted once, by its outermost frame.
		while (stack.length) {
			n = stack.pop();
			if (frameMatch[n]) {
				covered += T.val[n];
				continue;
			}
			for (var k = T.start[n]; k < T.start[n + 1]; k++)
				stack.push(T.kids[k]);
		}
		var p = pct(covered, T.whole);
		$('match').textContent = nodes ?
			'Matched: ' + p + '% (' + fmtInt(nodes) + (nodes > 1 ? ' frames)' : ' frame)') : 'No match';
		summary.setAttribute('data-search', text);
		summary.setAttribute('data-search-pct', p);
		draw();
	}
	var searchTimer = 0;
	search.addEventListener('input', function () {
		clearTimeout(searchTimer);
		searchTimer = setTimeout(applySearch, 120);
	});

	// ---- the top functions: a frame's name and object, summed over the tree's stacks
	var fnRows = [], sortKey = 'self', sortDir = -1, fnIndex = null;
	function functions(e) {
		var ids = new Map(), fnOf = new Int32Array(NF), list = [], rep = [];
		for (var f = 0; f < NF; f++) {
			var key = name(f) + '\u0000' + dso(f), id = ids.get(key);
			if (id === undefined) {
				id = list.length;
				ids.set(key, id);
				list.push({ id: id, name: name(f), dso: dso(f), self: 0, total: 0, selfS: 0, totalS: 0 });
				rep.push(f);
			}
			fnOf[f] = id;
		}
		// Self time goes to the sampled symbol, as in the text report, not
		// to functions inlined into it; total time once per path, however
		// often the function recurs on it.
		var cnt = new Int32Array(list.length), stack = [0], fr = T.fr;
		for (var n = 1; n < T.n; n++) {
			if (!T.slfS[n] && !T.slf[n])
				continue;
			var t = n;
			while (T.dep[t] > 2 && FR[3 * fr[t] + 2] & 4)
				t = T.par[t];
			if (T.dep[t] < 2)
				continue;
			var leaf = list[fnOf[fr[t]]];
			leaf.self += T.slf[n];
			leaf.selfS += T.slfS[n];
		}
		while (stack.length) {
			n = stack.pop();
			var id2 = n > 0 && T.dep[n] >= 2 ? fnOf[fr[n]] : -1;
			if (n < 0) {
				cnt[fnOf[fr[~n]]]--;
				continue;
			}
			if (id2 >= 0) {
				if (cnt[id2]++ === 0) {
					list[id2].total += T.val[n];
					list[id2].totalS += T.smp[n];
				}
				stack.push(~n);
			}
			for (var k = T.start[n]; k < T.start[n + 1]; k++)
				stack.push(T.kids[k]);
		}
		fnIndex = { fnOf: fnOf, rep: rep, total: list.map(function (r) {
			return r.total;
		}) };
		return list.filter(function (r) {
			return r.totalS > 0;
		});
	}
	function renderTable() {
		var k = sortKey, dir = sortDir;
		fnRows.sort(function (a, b) {
			var x = a[k], y = b[k];
			if (x !== y)
				return (x < y ? -1 : 1) * dir;
			if (a.total !== b.total)
				return b.total - a.total;
			return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
		});
		var ths = document.querySelectorAll('#top th');
		for (var i = 0; i < ths.length; i++) {
			if (ths[i].getAttribute('data-key') === k)
				ths[i].setAttribute('aria-sort', dir > 0 ? 'ascending' : 'descending');
			else
				ths[i].removeAttribute('aria-sort');
		}
		var body = document.createDocumentFragment(), n = Math.min(fnRows.length, TOPROWS);
		for (i = 0; i < n; i++) {
			var r = fnRows[i], tr = document.createElement('tr');
			cell(tr, r.name, 'fn');
			cell(tr, r.dso, '');
			cell(tr, pct(r.self, T.whole), 'num');
			cell(tr, pct(r.total, T.whole), 'num');
			cell(tr, fmtInt(r.selfS), 'num');
			cell(tr, fmtInt(r.totalS), 'num');
			if (DF.on)
				diffCells(tr, r);
			tr.setAttribute('data-name', r.name);
			tr.setAttribute('data-fn', r.id);
			body.appendChild(tr);
		}
		var tb = $('top').tBodies[0];
		tb.textContent = '';
		tb.appendChild(body);
		$('more').textContent = fnRows.length > n ?
			'The first ' + n + ' of ' + fmtInt(fnRows.length) + ' functions.' :
			fmtInt(fnRows.length) + ' functions.';
		if (fnRows.length)
			summary.setAttribute('data-top', fnRows[0].name);
		else
			summary.removeAttribute('data-top');
		summary.setAttribute('data-sort', k);
	}
	function cell(tr, text, cls) {
		var td = document.createElement('td');
		td.textContent = text;
		if (cls)
			td.className = cls;
		tr.appendChild(td);
	}
	$('top').tHead.addEventListener('click', function (ev) {
		var k = ev.target.getAttribute && ev.target.getAttribute('data-key');
		if (!k)
			return;
		if (k === sortKey)
			sortDir = -sortDir;
		else {
			sortKey = k;
			sortDir = k === 'name' || k === 'dso' ? 1 : -1;
		}
		renderTable();
	});
	$('top').tBodies[0].addEventListener('click', function (ev) {
		var tr = ev.target.closest && ev.target.closest('tr');
		if (!tr)
			return;
		search.value = '^' + tr.getAttribute('data-name').replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '$';
		applySearch();
		showSandwich(+tr.getAttribute('data-fn'));
		$('graph').scrollIntoView();
	});

	// ---- the sandwich of one function: who calls it (above, roots at the
	// top of that half) and what it calls (below), over every place it runs;
	// a call of it inside itself counts once, by its outermost frame.
	var sw = { fn: -1 };
	// A tree of paths: add(path of frame codes, weight) merges by frame.
	function Paths() {
		this.par = [-1];
		this.fr = [-1];
		this.val = [0];
		this.map = new Map();
	}
	Paths.prototype.child = function (n, f) {
		var key = n + ':' + f, c = this.map.get(key);
		if (c === undefined) {
			c = this.par.length;
			this.map.set(key, c);
			this.par.push(n);
			this.fr.push(f);
			this.val.push(0);
		}
		return c;
	};
	Paths.prototype.done = function () {
		var N = this.par.length, start = new Int32Array(N + 1), kids = new Int32Array(N - 1);
		var dep = new Int32Array(N), max = 0, par = this.par, fr = this.fr, val = this.val;
		for (var a = 1; a < N; a++) {
			start[par[a] + 1]++;
			dep[a] = dep[par[a]] + 1;
			max = Math.max(max, dep[a]);
		}
		for (a = 0; a < N; a++)
			start[a + 1] += start[a];
		var fill = start.slice(0, N);
		for (a = 1; a < N; a++)
			kids[fill[par[a]]++] = a;
		for (a = 0; a < N; a++)
			kids.subarray(start[a], start[a + 1]).sort(function (x, y) {
				return val[y] - val[x] || (name(fr[x]) < name(fr[y]) ? -1 : 1);
			});
		return { par: par, fr: fr, val: val, dep: dep, start: start, kids: kids, n: N, maxDepth: max };
	};
	function sandwich(fid) {
		var fnOf = fnIndex.fnOf, callers = new Paths(), callees = new Paths(), total = 0, totalS = 0;
		var stack = [0];
		// The function's outermost frames: their callers' chains and their subtrees.
		while (stack.length) {
			var n = stack.pop();
			if (T.dep[n] >= 2 && fnOf[T.fr[n]] === fid) {
				total += T.val[n];
				totalS += T.smp[n];
				var c = 0;
				callers.val[0] += T.val[n];
				for (var u = T.par[n]; u > 0; u = T.par[u]) {
					c = callers.child(c, T.dep[u] >= 2 ? fnIndex.rep[fnOf[T.fr[u]]] : T.fr[u]);
					callers.val[c] += T.val[n];
				}
				callees.val[0] += T.val[n];
				var sub = [n], at = [0];
				while (sub.length) {
					var m = sub.pop(), cm = at.pop();
					for (var k = T.start[m]; k < T.start[m + 1]; k++) {
						var ch = T.kids[k], cc = callees.child(cm, fnIndex.rep[fnOf[T.fr[ch]]]);
						callees.val[cc] += T.val[ch];
						sub.push(ch);
						at.push(cc);
					}
				}
				continue;
			}
			for (k = T.start[n]; k < T.start[n + 1]; k++)
				stack.push(T.kids[k]);
		}
		callers.fr[0] = callees.fr[0] = fnIndex.rep[fid];
		return { fn: fid, callers: callers.done(), callees: callees.done(), total: total, totalS: totalS };
	}
	// Draw tree @t on canvas @c, its root at the top (down) or the bottom.
	function paint(c, t, down) {
		var w = Math.max(200, wrap.clientWidth), depth = Math.min(t.maxDepth, MAXROWS);
		var h = (depth + 1) * ROW, g = sizeCanvas(c, w, h, 12);
		if (t.val[0] <= 0)
			return;
		var scale = w / t.val[0], stack = [0], pos = [0];
		while (stack.length) {
			var n = stack.pop(), x = pos.pop(), bw = t.val[n] * scale, d = t.dep[n];
			if (bw < 0.35 || d > depth)
				continue;
			var y = down ? d * ROW : h - (d + 1) * ROW;
			g.fillStyle = n === 0 ? '#d61ad6' : color(t.fr[n]);
			g.fillRect(x, y, bw > 2 ? bw - 1 : bw, ROW - 1);
			var fit = Math.floor((bw - 6) / charW), label = name(t.fr[n]);
			if (fit > 2) {
				g.fillStyle = n === 0 ? '#fff' : '#111';
				g.fillText(label.length > fit ? label.slice(0, fit - 2) + '..' : label, x + 3, y + ROW / 2);
			}
			for (var k = t.start[n]; k < t.start[n + 1]; k++) {
				stack.push(t.kids[k]);
				pos.push(x);
				x += t.val[t.kids[k]] * scale;
			}
		}
	}
	// The callers' or callees' table: the nodes next to the function.
	function nextTo(t, body) {
		var list = [];
		for (var k = t.start[0]; k < t.start[1]; k++)
			list.push(t.kids[k]);
		body.textContent = '';
		list.slice(0, 50).forEach(function (n) {
			var tr = document.createElement('tr');
			cell(tr, name(t.fr[n]), 'fn');
			cell(tr, dso(t.fr[n]), '');
			cell(tr, pct(t.val[n], T.whole), 'num');
			cell(tr, pct(t.val[n], t.val[0]), 'num');
			tr.setAttribute('data-name', name(t.fr[n]));
			body.appendChild(tr);
		});
		return list.map(function (n) {
			return name(t.fr[n]);
		}).join('|');
	}
	function showSandwich(fid) {
		var box = $('sandwich');
		showSource(fid);
		if (fid < 0 || !fnIndex) {
			box.hidden = true;
			summary.removeAttribute('data-sandwich');
			return;
		}
		sw = sandwich(fid);
		var nm = name(fnIndex.rep[fid]);
		box.hidden = false;
		$('swname').textContent = nm + ': ' + pct(sw.total, T.whole) + '% of the event, ' +
			fmtInt(sw.totalS) + ' samples';
		paint($('callers'), sw.callers, false);
		paint($('callees'), sw.callees, true);
		summary.setAttribute('data-sandwich', nm);
		summary.setAttribute('data-sandwich-pct', pct(sw.total, T.whole));
		summary.setAttribute('data-callers', nextTo(sw.callers, $('callertab').tBodies[0]));
		summary.setAttribute('data-callees', nextTo(sw.callees, $('calleetab').tBodies[0]));
	}
	function sandwichByName(nm) {
		var best = -1;
		for (var f = 0; f < NF; f++)
			if (name(f) === nm) {
				var id = fnIndex.fnOf[f];
				if (best < 0 || fnIndex.total[id] > fnIndex.total[best])
					best = id;
			}
		showSandwich(best);
		return best;
	}
	['callertab', 'calleetab'].forEach(function (id) {
		$(id).tBodies[0].addEventListener('click', function (ev) {
			var tr = ev.target.closest && ev.target.closest('tr');
			if (tr)
				sandwichByName(tr.getAttribute('data-name'));
		});
	});
	$('swclose').addEventListener('click', function () {
		showSandwich(-1);
	});

	// ---- the timeline: each thread's samples over time; a range chosen on it
	// (a drag) sums only its samples into every view.  D.timeline holds the
	// buckets' width, the threads [pid, tid, command] and per event the lanes
	// [thread (-1: all), samples, then bucket step, samples...]; the cells
	// (bucket step, node, samples, count: every thread's), in their own
	// element, are read once a range is chosen.
	var TL = D.timeline && D.timeline.buckets ? D.timeline : null, CELLS = null, range = null;
	var LABEL = 190, LANE = 15, AXIS = 18, tlc = $('timeline');
	function cells() {
		if (!CELLS)
			CELLS = JSON.parse($('perfev-times').textContent);
		return CELLS;
	}
	// The buckets [a, b) of the nanoseconds [from, to) since the first sample.
	function toBuckets(from, to) {
		var a = Math.max(0, Math.floor(from / TL.bucket_ns));
		var b = Math.min(TL.buckets, Math.ceil(to / TL.bucket_ns));
		return b > a ? [a, b] : null;
	}
	function secs(b) {
		return ((b * TL.bucket_ns) / 1e9).toFixed(3);
	}
	// Every node's self samples and count in the range.
	function rangeValues() {
		var c = cells(), sS = new Float64Array(NN), sV = new Float64Array(NN), b = 0;
		for (var i = 0; i < c.length; i += 4) {
			b += c[i];
			if (b < range[0])
				continue;
			if (b >= range[1])
				break;
			sS[c[i + 1]] += c[i + 2];
			sV[c[i + 1]] += c[i + 3];
		}
		return [sS, sV];
	}
	function setRange(r) {
		range = r;
		var z = zoom > 0 ? name(T.fr[zoom]) : null, sw0 = sw.fn;
		show(ev);
		// The zoom and the sandwich stay where their function still has samples.
		if (z)
			for (var n = 1; n < T.n; n++)
				if (name(T.fr[n]) === z && T.val[n] > 0) {
					setZoom(n);
					break;
				}
		if (sw0 >= 0)
			showSandwich(sw0);
	}
	// The lanes shown: every thread's and the busiest few, or all the data has.
	var FEWLANES = 6, allLanes = false;
	function laneRows() {
		var l = TL && TL.lanes[ev] ? TL.lanes[ev] : [];
		var more = $('lanes');
		more.hidden = l.length <= FEWLANES;
		more.textContent = allLanes ? 'Fewer threads' : 'All ' + (l.length - 1) + ' busiest threads';
		return allLanes ? l : l.slice(0, FEWLANES);
	}
	$('lanes').addEventListener('click', function () {
		allLanes = !allLanes;
		drawTimeline();
	});
	function drawTimeline() {
		var box = $('timebox');
		if (!TL) {
			box.hidden = true;
			return;
		}
		box.hidden = false;
		var lanes = laneRows(), w = Math.max(300, wrap.clientWidth), span = w - LABEL;
		var h = AXIS + lanes.length * LANE + 2, g = sizeCanvas(tlc, w, h, 11);
		// The axis: seconds since the first sample.
		g.fillStyle = '#5c6672';
		var total = TL.buckets * TL.bucket_ns / 1e9, step = Math.pow(10, Math.floor(Math.log10(total / 4 || 1)));
		while (total / step > 8)
			step *= 2;
		for (var t = 0; t <= total; t += step) {
			var x = LABEL + (t / total) * span;
			g.fillRect(x, AXIS - 5, 1, 5);
			g.fillText(t.toFixed(step < 1 ? 2 : 0) + ' s', Math.min(x + 2, w - 40), AXIS / 2);
		}
		var bw = span / TL.buckets;
		lanes.forEach(function (l, i) {
			var y = AXIS + i * LANE, th = l[0], max = 0, k, b = 0;
			for (k = 3; k < l.length; k += 2)
				max = Math.max(max, l[k]);
			g.fillStyle = i % 2 ? '#f4f6f8' : '#fff';
			g.fillRect(0, y, w, LANE);
			g.fillStyle = '#1d232b';
			var label = th < 0 ? 'all threads' : S[TL.threads[3 * th + 2]] + ' ' + TL.threads[3 * th + 1];
			g.fillText(label.length > 26 ? label.slice(0, 24) + '..' : label, 4, y + LANE / 2);
			g.fillStyle = th < 0 ? '#2f6fb5' : '#e4693f';
			for (k = 2; k < l.length; k += 2) {
				b += l[k];
				g.globalAlpha = 0.15 + 0.85 * (l[k + 1] / max);
				g.fillRect(LABEL + b * bw, y + 2, Math.max(1, bw), LANE - 4);
			}
			g.globalAlpha = 1;
		});
		if (range) {
			g.fillStyle = 'rgba(47,111,181,0.18)';
			g.fillRect(LABEL + range[0] * bw, 0, (range[1] - range[0]) * bw, h);
			g.fillStyle = '#2f6fb5';
			g.fillRect(LABEL + range[0] * bw, 0, 1, h);
			g.fillRect(LABEL + range[1] * bw - 1, 0, 1, h);
		}
		var ri = $('rangeinfo');
		$('rangeclear').disabled = !range;
		if (range) {
			ri.textContent = 'Samples from ' + secs(range[0]) + ' s to ' + secs(range[1]) + ' s: ' +
				fmtInt(T.smp[0]) + ' in every view below. Esc or Clear shows the whole recording.';
			summary.setAttribute('data-range', secs(range[0]) + '-' + secs(range[1]));
			// The recording's times of its first and last nanosecond.
			summary.setAttribute('data-range-ns', (TL.start + range[0] * TL.bucket_ns) + '-' +
				(TL.start + range[1] * TL.bucket_ns - 1));
		} else {
			ri.textContent = 'Drag across the timeline to show only the samples of a time range.';
			summary.removeAttribute('data-range');
			summary.removeAttribute('data-range-ns');
		}
		summary.setAttribute('data-lanes', lanes.length);
		summary.setAttribute('data-lane-threads', lanes.map(function (l) {
			return l[0] < 0 ? 'all' : TL.threads[3 * l[0] + 1];
		}).join(','));
	}
	// The bucket under the mouse: x on the canvas, past the labels.
	function bucketAt(clientX) {
		var r = tlc.getBoundingClientRect(), span = r.width - LABEL;
		return Math.max(0, Math.min(TL.buckets, Math.round(((clientX - r.left - LABEL) / span) * TL.buckets)));
	}
	var dragFrom = -1;
	tlc.addEventListener('mousedown', function (e) {
		if (!TL || e.button !== 0)
			return;
		dragFrom = bucketAt(e.clientX);
		e.preventDefault();
	});
	tlc.addEventListener('mousemove', function (e) {
		if (!TL)
			return;
		var b = Math.min(bucketAt(e.clientX), TL.buckets - 1);
		tlc.title = secs(b) + ' s';
		if (dragFrom < 0)
			return;
		// The range being chosen, drawn as it grows; applied on release.
		var old = range, to = bucketAt(e.clientX);
		range = to !== dragFrom ? [Math.min(dragFrom, to), Math.max(dragFrom, to)] : null;
		drawTimeline();
		range = old;
	});
	window.addEventListener('mouseup', function (e) {
		if (dragFrom < 0)
			return;
		var to = bucketAt(e.clientX), from = dragFrom;
		dragFrom = -1;
		// A click without a drag shows the whole recording again.
		setRange(to !== from ? [Math.min(from, to), Math.max(from, to)] : null);
	});
	$('rangeclear').addEventListener('click', function () {
		setRange(null);
	});
	// What a drag from fraction a to b of the timeline's width does (the #drag test).
	function dragAcross(ab) {
		if (!TL || ab.length !== 2 || isNaN(ab[0]) || isNaN(ab[1]))
			return;
		var r = tlc.getBoundingClientRect(), span = r.width - LABEL, y = r.top + AXIS + 4;
		var at = function (f) {
			return { clientX: r.left + LABEL + f * span, clientY: y, button: 0, bubbles: true };
		};
		tlc.dispatchEvent(new MouseEvent('mousedown', at(ab[0])));
		tlc.dispatchEvent(new MouseEvent('mousemove', at((ab[0] + ab[1]) / 2)));
		tlc.dispatchEvent(new MouseEvent('mousemove', at(ab[1])));
		window.dispatchEvent(new MouseEvent('mouseup', at(ab[1])));
	}

	// ---- source lines: the lines of the function in the sandwich, from the
	// perfev-lines element, parsed when first asked for (profile-html-lines.c):
	//   functions: [event, name, object, [files], [file, line, self samples,
	//              self count, total samples, total count]..., text] where
	//              file is a slot of files and text [file, first line,
	//              line's text...] or null;
	//   strings:   what name, object and files index.
	var SL = null, CTX = 8, EDGE = 3;
	function linesData() {
		if (SL)
			return SL;
		var el = $('perfev-lines'), txt = el ? el.textContent : '', d;
		SL = { fns: new Map(), s: [] };
		if (!/\S/.test(txt))
			return SL;
		d = JSON.parse(txt);
		SL.s = d.strings;
		d.functions.forEach(function (f) {
			SL.fns.set(f[0] + '\u0000' + d.strings[f[1]] + '\u0000' + d.strings[f[2]], f);
		});
		return SL;
	}
	var SRC_ATTRS = ['lines', 'lines-file', 'line-hot', 'line-hot-pct', 'lines-self-pct',
		'lines-text', 'lines-none'];
	function srcRow(body, cls, cells, text) {
		var tr = document.createElement('tr');
		if (cls)
			tr.className = cls;
		cells.forEach(function (c, i) {
			cell(tr, c, i < 5 ? 'num' : '');
		});
		if (text != null)
			cell(tr, text, 'code');
		body.appendChild(tr);
		return tr;
	}
	function showSource(fid) {
		var box = $('source'), tab = $('srctab'), body = tab.tBodies[0], note = $('srcnote');
		SRC_ATTRS.forEach(function (a) {
			summary.removeAttribute('data-' + a);
		});
		body.textContent = '';
		if (fid < 0 || !fnIndex)
			return;
		var f = fnIndex.rep[fid], L = linesData(), e = L.fns.get(ev + '\u0000' + name(f) + '\u0000' + dso(f));
		if (!e || !e[4].length) {
			tab.hidden = true;
			note.textContent = 'No source line is known for ' + name(f) +
				' (its object has no line table, or it was not found).';
			summary.setAttribute('data-lines-none', '1');
			return;
		}
		var files = e[3], ln = e[4], code = e[5], hot = 0, selfSum = 0, i;
		// The lines are the whole recording's: their shares too, whatever the time range.
		var whole = range && D.events[ev] ? D.events[ev].period : T.whole;
		for (i = 0; i < ln.length; i += 6) {
			selfSum += ln[i + 3];
			if (ln[i + 2] > ln[hot + 2] || (ln[i + 2] === ln[hot + 2] && ln[i + 4] > ln[hot + 4]))
				hot = i;
		}
		// The text of line @l of file slot @s, or null.
		var text = function (s, l) {
			var k = code ? l - code[1] + 2 : -1;
			return code && s === code[0] && k >= 2 && k < code.length ? code[k] : null;
		};
		var nText = 0;
		var ctx = function (s, a, b) {
			// Lines a..b (no samples) of slot s: shown when their text is known, few of them.
			var known = text(s, a) != null && text(s, b) != null;
			if (known && b - a + 1 <= CTX) {
				for (var c = a; c <= b; c++, nText++)
					srcRow(body, 'ctx', [c, '', '', '', ''], text(s, c));
			} else if (known) {
				ctx(s, a, a + EDGE - 1);
				srcRow(body, 'gap', ['\u22ef', '', '', '', ''], (b - a + 1 - 2 * EDGE) + ' lines');
				ctx(s, b - EDGE + 1, b);
			} else {
				srcRow(body, 'gap', ['\u22ef', '', '', '', ''], (b - a + 1) + (b > a ? ' lines' : ' line'));
			}
		};
		for (i = 0; i < ln.length; i += 6) {
			var s = ln[i], l = ln[i + 1], first = i === 0 || ln[i - 6] !== s;
			if (first) {
				srcRow(body, 'file', ['', '', '', '', ''], SL.s[files[s]]);
				var a0 = Math.max(1, l - EDGE);
				if (text(s, a0) != null && a0 < l)
					ctx(s, a0, l - 1);
			} else if (l > ln[i - 5] + 1) {
				ctx(s, ln[i - 5] + 1, l - 1);
			}
			var t = text(s, l), tr = srcRow(body, i === hot ? 'hot' : '',
				[l, pct(ln[i + 3], whole), pct(ln[i + 5], whole), fmtInt(ln[i + 2]), fmtInt(ln[i + 4])],
				t == null ? '' : t);
			tr.setAttribute('data-line', l);
			nText += t != null;
			if (i + 6 >= ln.length || ln[i + 6] !== s) {
				var b0 = l + EDGE;
				while (b0 > l && text(s, b0) == null)
					b0--;
				if (b0 > l)
					ctx(s, l + 1, b0);
			}
		}
		tab.hidden = false;
		note.textContent = SL.s[files[ln[hot]]] + ': ' + ln.length / 6 + ' lines with samples; the hottest, ' +
			ln[hot + 1] + ', highlighted.' + (code ? '' : ' The source file could not be read when the page was written.') +
			(range ? ' Shares of the whole recording: the lines do not follow the time range.' : '');
		summary.setAttribute('data-lines', ln.length / 6);
		summary.setAttribute('data-lines-file', SL.s[files[ln[hot]]]);
		summary.setAttribute('data-line-hot', ln[hot + 1]);
		summary.setAttribute('data-line-hot-pct', pct(ln[hot + 2] ? ln[hot + 3] : ln[hot + 5], whole));
		summary.setAttribute('data-lines-self-pct', pct(selfSum, whole));
		summary.setAttribute('data-lines-text', nText);
	}

	// ---- the recording's description
	function metadata() {
		var m = D.meta, e = D.events[ev] || { name: '', samples: 0, period: 0 }, dl = $('metalist');
		var dur = m.duration_ns != null ? (m.duration_ns / 1e9).toFixed(3) + ' s' : null;
		var items = [
			['input', m.input], ['hostname', m.hostname], ['os release', m.os_release],
			['arch', m.arch], ['cpu', m.cpu], ['cpus', m.nr_cpus || null],
			['command line', m.cmdline], ['perf version', m.perf_version], ['event', e.name],
			['samples', fmtInt(e.samples) +
				(T.smp[0] !== e.samples ? ' (' + fmtInt(T.smp[0]) + ' in the graph)' : '')],
			['event count', fmtInt(e.period)], ['lost samples', fmtInt(m.lost || 0)], ['duration', dur]
		];
		var dr = D.dropped;
		if (dr && dr.subtrees)
			items.push(['merged', fmtInt(dr.samples) + ' samples of ' + fmtInt(dr.subtrees) +
				' call paths under 1/' + fmtInt(dr.below) + ' of the event each (too narrow to draw), ' +
				'shown as one frame per caller']);
		dl.textContent = '';
		items.forEach(function (it) {
			if (it[1] == null || it[1] === '')
				return;
			var dt = document.createElement('dt'), dd = document.createElement('dd');
			dt.textContent = it[0];
			dd.textContent = it[1];
			dl.appendChild(dt);
			dl.appendChild(dd);
		});
		$('input').textContent = (m.input || '') + (m.cmdline ? '  \u2014  ' + m.cmdline : '');
		if (D.diff)
			diffMeta(dl);
	}

	// ---- one event shown at a time
	function show(e) {
		e = diffEvent(e);
		ev = e;
		T = build(e, range ? rangeValues() : null);
		colorCache = [];
		zoom = 0;
		$('empty').hidden = T.n > 1;
		summary.setAttribute('data-event', D.events[e] ? D.events[e].name : '');
		summary.setAttribute('data-frames', T.n - 1);
		summary.setAttribute('data-depth', T.maxDepth);
		summary.setAttribute('data-total', T.smp[0]);
		summary.setAttribute('data-period', T.val[0]);
		metadata();
		drawTimeline();
		fnRows = diffRows(functions(e));
		renderTable();
		showSandwich(-1);
		setZoom(0);
		if (search.value)
			applySearch();
	}
	var sel = $('event');
	D.events.forEach(function (e, i) {
		var o = document.createElement('option');
		o.value = i;
		o.textContent = e.name + (evHas[i] ? '' : ' (no samples)');
		sel.appendChild(o);
	});
	sel.hidden = nev < 2;
	sel.addEventListener('change', function () {
		show(+sel.value);
	});

	// #event=N&search=RE&zoom=NAME in the address picks what is shown first.
	var want = {};
	location.hash.replace(/^#/, '').split('&').forEach(function (kv) {
		var i = kv.indexOf('=');
		if (i > 0)
			try {
				want[kv.slice(0, i)] = decodeURIComponent(kv.slice(i + 1));
			} catch (e) {
				/* a malformed escape: ignore that item */
			}
	});
	if (want.event != null && +want.event >= 0 && +want.event < nev)
		ev = +want.event;
	sel.value = ev;
	if (want.search)
		search.value = want.search;
	flame = want.view === 'flame';
	$('view').textContent = flame ? 'Icicle' : 'Flame graph';
	if (want.time && TL) {
		var tr = /^([0-9.]+)-([0-9.]+)$/.exec(want.time);
		if (tr)
			range = toBuckets(+tr[1] * 1e9, +tr[2] * 1e9);
	}
	var t0 = performance.now();
	show(ev);
	summary.setAttribute('data-ms', Math.round(performance.now() - t0));
	// Since the browser began to load the page: its first view is drawn.
	summary.setAttribute('data-first-ms', Math.round(performance.now()));
	if (want.sandwich && sandwichByName(want.sandwich) < 0)
		summary.setAttribute('data-sandwich-missing', want.sandwich);
	if (want.zoom) {
		// The widest frame of that name.
		var best = -1;
		for (var n = 1; n < T.n; n++)
			if (name(T.fr[n]) === want.zoom && (best < 0 || T.val[n] > T.val[best]))
				best = n;
		if (best > 0)
			setZoom(best);
		else
			summary.setAttribute('data-zoom-missing', want.zoom);
	}
	// #drag=A,B: a mouse drag on the timeline from A to B (fractions of its width).
	if (want.drag)
		dragAcross(want.drag.split(',').map(Number));
	// #keys=K,K,...: keys pressed once the page is drawn (KeyboardEvent key names).
	if (want.keys)
		want.keys.split(',').forEach(function (k) {
			document.dispatchEvent(new KeyboardEvent('keydown', { key: k }));
		});
	var resizeTimer = 0;
	window.addEventListener('resize', function () {
		clearTimeout(resizeTimer);
		resizeTimer = setTimeout(function () {
			draw();
			drawTimeline();
		}, 100);
	});
	summary.setAttribute('data-ready', '1');
})();
