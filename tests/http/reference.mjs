// Naive reference simulators for the integration suite, written straight
// from the rules of Baekjoon 20061 and 11559 and the Puyo Puyo Tsu rules in
// openapi.yaml (not from the C code): expected answers for generated and hand-built cases come from
// here or from the problem statements, never from the server itself.

// --- Monomino-Domino -----------------------------------------------------

// Green is 6 rows x 4 columns (row 0 the lightest); blue is 4 rows x 6
// columns (column 0 the lightest). Boards are arrays of arrays of booleans.
function emptyGrid(rows, cols) {
	return Array.from({ length: rows }, () => Array(cols).fill(false));
}

function blockCells(t, x, y) {
	if (t === 1) return [[x, y]];
	if (t === 2) return [[x, y], [x, y + 1]];
	return [[x, y], [x + 1, y]];
}

// Slides cells (in green coordinates) down from where they start, until
// one more step would hit a tile or leave the board.
function dropGreen(g, cells) {
	let d = 0;
	const fits = (dd) => cells.every(([r, c]) => r + dd < 6 && !g[r + dd][c]);
	while (fits(d + 1)) d++;
	for (const [r, c] of cells) g[r + d][c] = true;
}

function dropBlue(b, cells) {
	let d = 0;
	const fits = (dd) => cells.every(([r, c]) => c + dd < 6 && !b[r][c + dd]);
	while (fits(d + 1)) d++;
	for (const [r, c] of cells) b[r][c + d] = true;
}

function settleGreen(g) {
	let points = 0;
	for (;;) {
		const full = g.findIndex((row) => row.every(Boolean));
		if (full < 0) break;
		g.splice(full, 1);
		g.unshift(Array(4).fill(false));
		points++;
	}
	const k = [0, 1].filter((r) => g[r].some(Boolean)).length;
	for (let i = 0; i < k; i++) {
		g.pop();
		g.unshift(Array(4).fill(false));
	}
	return points;
}

function settleBlue(b) {
	let points = 0;
	for (;;) {
		let full = -1;
		for (let c = 5; c >= 0; c--) if (b.every((row) => row[c])) { full = c; break; }
		if (full < 0) break;
		for (const row of b) { row.splice(full, 1); row.unshift(false); }
		points++;
	}
	const k = [0, 1].filter((c) => b.some((row) => row[c])).length;
	for (let i = 0; i < k; i++) for (const row of b) { row.pop(); row.unshift(false); }
	return points;
}

// Runs a whole case; returns {score, tiles, green, blue, steps} (steps left
// empty with { steps: false }, for long cases).
export function mdSolve(blocks, { steps: keepSteps = true } = {}) {
	const g = emptyGrid(6, 4);
	const b = emptyGrid(4, 6);
	let score = 0;
	const steps = [];
	for (const [t, x, y] of blocks) {
		const cells = blockCells(t, x, y);
		const minX = Math.min(...cells.map((c) => c[0]));
		const minY = Math.min(...cells.map((c) => c[1]));
		dropGreen(g, cells.map(([cx, cy]) => [cx - minX, cy]));
		dropBlue(b, cells.map(([cx, cy]) => [cx, cy - minY]));
		const gained = settleGreen(g) + settleBlue(b);
		score += gained;
		if (keepSteps) steps.push({ gained, score, tiles: mdTiles(g, b), green: rowsOf(g), blue: rowsOf(b) });
	}
	return { score, tiles: mdTiles(g, b), green: rowsOf(g), blue: rowsOf(b), steps };
}

function mdTiles(g, b) {
	return g.flat().filter(Boolean).length + b.flat().filter(Boolean).length;
}

function rowsOf(grid) {
	return grid.map((row) => row.map((v) => (v ? '#' : '.')).join(''));
}

// Whether a placement lies inside the red board.
export function mdLegal(t, x, y) {
	if (![1, 2, 3].includes(t)) return false;
	return blockCells(t, x, y).every(([cx, cy]) => cx >= 0 && cx <= 3 && cy >= 0 && cy <= 3);
}

// --- Puyo -------------------------------------------------------------------

const CP = [0, 8, 16, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512];
const CB = [0, 0, 3, 6, 12, 24];
const GB = (size) => (size >= 11 ? 10 : [0, 0, 0, 0, 0, 2, 3, 4, 5, 6, 7][size]);

export function puyoStepScore(chain, popped, colors, sizes) {
	const cp = CP[Math.min(chain, 19) - 1];
	const bonus = cp + CB[colors] + sizes.reduce((s, n) => s + GB(n), 0);
	return 10 * popped * Math.min(999, Math.max(1, bonus));
}

function puyoSettle(f) {
	const rows = f.length;
	for (let c = 0; c < 6; c++) {
		const col = [];
		for (let r = rows - 1; r >= 0; r--) if (f[r][c] !== '.') col.push(f[r][c]);
		for (let r = rows - 1, i = 0; r >= 0; r--, i++) f[r][c] = i < col.length ? col[i] : '.';
	}
}

// Runs a field (12 or 13 rows of strings, top first); returns
// {chains, score, all_clear, field, steps}.
export function puyoSolve(rowsIn) {
	const f = rowsIn.map((s) => s.split(''));
	const rows = f.length;
	const top = rows - 12; // first visible row
	puyoSettle(f);
	const steps = [];
	let score = 0;
	for (let chain = 1; ; chain++) {
		const seen = f.map((row) => row.map(() => false));
		const groups = [];
		for (let r = top; r < rows; r++) {
			for (let c = 0; c < 6; c++) {
				const v = f[r][c];
				if (v === '.' || v === 'O' || seen[r][c]) continue;
				const stack = [[r, c]];
				const cells = [];
				seen[r][c] = true;
				while (stack.length) {
					const [pr, pc] = stack.pop();
					cells.push([pr, pc]);
					for (const [dr, dc] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
						const nr = pr + dr, nc = pc + dc;
						if (nr < top || nr >= rows || nc < 0 || nc >= 6) continue;
						if (seen[nr][nc] || f[nr][nc] !== v) continue;
						seen[nr][nc] = true;
						stack.push([nr, nc]);
					}
				}
				if (cells.length >= 4) groups.push({ colour: v, cells });
			}
		}
		if (groups.length === 0) break;
		let popped = 0;
		const garbage = new Set();
		for (const g of groups) {
			for (const [r, c] of g.cells) {
				f[r][c] = '.';
				popped++;
			}
		}
		for (const g of groups) {
			for (const [r, c] of g.cells) {
				for (const [dr, dc] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
					const nr = r + dr, nc = c + dc;
					if (nr < top || nr >= rows || nc < 0 || nc >= 6) continue;
					if (f[nr][nc] === 'O') garbage.add(nr * 6 + nc);
				}
			}
		}
		for (const k of garbage) f[Math.floor(k / 6)][k % 6] = '.';
		const colors = new Set(groups.map((g) => g.colour)).size;
		const s = puyoStepScore(chain, popped, colors, groups.map((g) => g.cells.length));
		score += s;
		puyoSettle(f);
		steps.push({
			chain, popped, garbage: garbage.size, groups: groups.length, colors, score: s,
			field: f.map((row) => row.join('')),
		});
	}
	const empty = f.every((row) => row.every((v) => v === '.'));
	return {
		chains: steps.length, score, all_clear: empty && steps.length > 0,
		field: f.map((row) => row.join('')), steps,
	};
}
