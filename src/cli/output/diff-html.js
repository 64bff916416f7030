// SPDX-License-Identifier: LGPL-2.1-or-later
// perfev diff --html: the differential flame graph of two profiles, each
// embedded as perfev report --html embeds one (strings; frames as [name,
// dso, kind] flattened; stacks as [event, comm, samples, period, root
// frame, ..., leaf frame]).  Their call trees are merged by the names of
// the frames from the root down; a node's width is its share of the new
// profile, its colour the change of that share since the baseline.
'use strict';
(function () {
	var $ = function (id) {
		return document.getElementById(id);
	};
	var FILES = JSON.parse($('perfev-files').textContent);
	var P = [JSON.parse($('perfev-base').textContent), JSON.parse($('perfev-new').textContent)];
	var ROW = 17, MAXROWS = 1800;
	var summary = $('summary');

	// ---- the merged tree: node 0 is the root; per node its name, object, kind and periods
	var name = ['all'], dso = [''], kind = [3], val = [[0, 0]], kids = [{}], parent = [-1];
	var total = [0, 0];

	function child(n, key, nm, ob, k) {
		var c = kids[n][key];
		if (c === undefined) {
			c = name.length;
			kids[n][key] = c;
			name.push(nm);
			dso.push(ob);
			kind.push(k);
			val.push([0, 0]);
			kids.push({});
			parent.push(n);
		}
		return c;
	}
	P.forEach(function (D, side) {
		var S = D.strings, FR = D.frames;
		D.stacks.forEach(function (s) {
			var period = s[3], n = child(0, 'c' + S[s[1]], S[s[1]], '', 3);
			total[side] += period;
			val[0][side] += period;
			val[n][side] += period;
			for (var i = 4; i < s.length; i++) {
				var f = s[i], nm = S[FR[3 * f]], ob = S[FR[3 * f + 1]];
				n = child(n, 'f' + nm + '\u0000' + ob, nm, ob, FR[3 * f + 2] & 3);
				val[n][side] += period;
			}
		});
	});
	var N = name.length;
	function share(n, side) {
		return total[side] > 0 ? val[n][side] / total[side] : 0;
	}
	function change(n) {
		return share(n, 1) - share(n, 0);
	}
	var maxChange = 0;
	for (var i = 1; i < N; i++)
		maxChange = Math.max(maxChange, Math.abs(change(i)));

	function color(n) {
		var c = maxChange > 0 ? change(n) / maxChange : 0, m = Math.min(1, Math.abs(c));
		if (m < 0.02)
			return 'hsl(0,0%,88%)';
		return 'hsl(' + (c > 0 ? 0 : 215) + ',' + Math.round(45 + 40 * m) + '%,' +
			Math.round(88 - 38 * m) + '%)';
	}
	function pct(v) {
		return (100 * v).toFixed(2) + '%';
	}
	function pp(v) {
		return (v >= 0 ? '+' : '') + (100 * v).toFixed(2) + ' pp';
	}

	// ---- layout: rows from the root down, children by their new share, widest first
	var canvas = $('flame'), ctx = canvas.getContext('2d'), zoom = 0, rects = [];
	function sortedKids(n) {
		var v = [];
		for (var k in kids[n])
			v.push(kids[n][k]);
		return v.sort(function (a, b) {
			return val[b][1] - val[a][1] || (name[a] < name[b] ? -1 : name[a] > name[b]);
		});
	}
	function layout() {
		var out = [], w = canvas.width, root = zoom, scale = val[root][1] > 0 ? w / val[root][1] : 0;
		// The path from the real root down to the zoomed node, full width.
		var up = [], depth = 0;
		for (var a = root; a > 0; a = parent[a])
			up.unshift(a);
		up.unshift(0);
		up.forEach(function (n, d) {
			if (n !== root)
				out.push([n, 0, w, d]);
		});
		depth = up.length - 1;
		(function walk(n, x, d) {
			var width = val[n][1] * scale;
			if (width < 0.5 || d > MAXROWS)
				return;
			out.push([n, x, width, d]);
			sortedKids(n).forEach(function (c) {
				walk(c, x, d + 1);
				x += val[c][1] * scale;
			});
		})(root, 0, depth);
		return out;
	}
	function draw() {
		canvas.width = $('wrap').clientWidth || 1200;
		rects = layout();
		var rows = 0;
		rects.forEach(function (r) {
			rows = Math.max(rows, r[3] + 1);
		});
		canvas.height = rows * ROW;
		ctx.font = '12px ui-monospace, monospace';
		ctx.textBaseline = 'middle';
		rects.forEach(function (r) {
			var n = r[0], x = r[1], w = r[2], y = r[3] * ROW;
			ctx.fillStyle = color(n);
			ctx.fillRect(x, y, Math.max(w - 1, 1), ROW - 1);
			if (w > 30) {
				var t = name[n], fit = Math.floor((w - 6) / 7.2);
				if (t.length > fit)
					t = t.slice(0, Math.max(fit - 1, 0)) + '\u2026';
				ctx.fillStyle = '#1d232b';
				ctx.fillText(t, x + 3, y + ROW / 2);
			}
		});
		$('reset').disabled = zoom === 0;
		summary.setAttribute('data-drawn', rects.length);
	}
	function at(ev) {
		var b = canvas.getBoundingClientRect(), x = ev.clientX - b.left, y = ev.clientY - b.top;
		for (var i = 0; i < rects.length; i++) {
			var r = rects[i];
			if (x >= r[1] && x < r[1] + r[2] && y >= r[3] * ROW && y < (r[3] + 1) * ROW)
				return r[0];
		}
		return -1;
	}
	var tip = $('tip');
	canvas.addEventListener('mousemove', function (ev) {
		var n = at(ev);
		if (n < 0) {
			tip.hidden = true;
			return;
		}
		tip.textContent = '';
		var b = document.createElement('b');
		b.textContent = name[n] + (dso[n] ? '  (' + dso[n] + ')' : '');
		tip.appendChild(b);
		[['baseline', share(n, 0), val[n][0]], ['new', share(n, 1), val[n][1]]].forEach(function (s) {
			var d = document.createElement('div');
			d.textContent = s[0] + ': ' + pct(s[1]) + ' of the samples\' period (' + s[2] + ')';
			tip.appendChild(d);
		});
		var d = document.createElement('div');
		d.textContent = 'change: ' + pp(change(n));
		tip.appendChild(d);
		tip.hidden = false;
		tip.style.left = Math.min(ev.clientX + 12, window.innerWidth - 300) + 'px';
		tip.style.top = ev.clientY + 14 + 'px';
	});
	canvas.addEventListener('mouseleave', function () {
		tip.hidden = true;
	});
	canvas.addEventListener('click', function (ev) {
		var n = at(ev);
		if (n >= 0) {
			zoom = n;
			draw();
		}
	});
	$('reset').addEventListener('click', function () {
		zoom = 0;
		draw();
	});
	window.addEventListener('resize', draw);

	// ---- the table: the functions whose share changed most (each node of the tree)
	var order = [];
	for (i = 1; i < N; i++)
		if (kind[i] !== 3)
			order.push(i);
	order.sort(function (a, b) {
		return Math.abs(change(b)) - Math.abs(change(a)) || a - b;
	});
	var tbody = $('top').tBodies[0];
	order.slice(0, 30).forEach(function (n) {
		var tr = document.createElement('tr');
		[name[n], dso[n], pct(share(n, 0)), pct(share(n, 1)), pp(change(n))].forEach(function (t, k) {
			var td = document.createElement('td');
			td.textContent = t;
			if (k > 1)
				td.className = 'num';
			tr.appendChild(td);
		});
		tbody.appendChild(tr);
	});

	$('files').textContent = FILES.base + ' \u2192 ' + FILES.new;
	$('event').textContent = 'event: ' + (P[1].events.length ? P[1].events[0].name : '');
	var up = -1, down = -1;
	for (i = 1; i < N; i++) {
		if (kind[i] === 3)
			continue;
		if (up < 0 || change(i) > change(up))
			up = i;
		if (down < 0 || change(i) < change(down))
			down = i;
	}
	summary.setAttribute('data-nodes', N - 1);
	summary.setAttribute('data-base-total', total[0]);
	summary.setAttribute('data-new-total', total[1]);
	summary.setAttribute('data-up', up > 0 ? name[up] : '');
	summary.setAttribute('data-up-color', up > 0 ? color(up) : '');
	summary.setAttribute('data-down', down > 0 ? name[down] : '');
	summary.setAttribute('data-down-color', down > 0 ? color(down) : '');
	draw();
	summary.setAttribute('data-ready', 1);
})();
