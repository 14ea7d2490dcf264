// splitmix64 and xoshiro256** exactly as Blackman and Vigna publish them
// (prng.di.unimi.it), in BigInt, with the draws include/dropjudge/gen.h
// documents for Monomino-Domino: the suite derives pinned generator outputs
// from these published algorithms, not from the server.
const MASK = (1n << 64n) - 1n;

export function splitmix64(state) {
	let s = state;
	return () => {
		s = (s + 0x9e3779b97f4a7c15n) & MASK;
		let z = s;
		z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
		z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
		return z ^ (z >> 31n);
	};
}

const rotl = (x, k) => ((x << k) | (x >> (64n - k))) & MASK;

// xoshiro256** seeded with four successive splitmix64 outputs of `seed`.
export function xoshiro(seed) {
	const sm = splitmix64(BigInt.asUintN(64, BigInt(seed)));
	const s = [sm(), sm(), sm(), sm()];
	const next = () => {
		const result = (rotl((s[1] * 5n) & MASK, 7n) * 9n) & MASK;
		const t = (s[1] << 17n) & MASK;
		s[2] ^= s[0];
		s[3] ^= s[1];
		s[1] ^= s[2];
		s[0] ^= s[3];
		s[2] ^= t;
		s[3] = rotl(s[3], 45n);
		return result;
	};
	// Uniform in [0, bound) by rejection: draw until r >= 2^64 mod bound.
	const below = (bound) => {
		const b = BigInt(bound);
		const threshold = ((1n << 64n) - b) % b;
		let r;
		do r = next(); while (r < threshold);
		return Number(r % b);
	};
	return { next, below };
}

// The Monomino-Domino case of a seed: t = 1 + below(3); p = below(rows *
// cols) over the top-left positions that keep the block in red; x = p /
// cols, y = p % cols.
export function mdGenerate(seed, n) {
	const g = xoshiro(seed);
	const blocks = [];
	for (let i = 0; i < n; i++) {
		const t = 1 + g.below(3);
		const rows = t === 3 ? 3 : 4;
		const cols = t === 2 ? 3 : 4;
		const p = g.below(rows * cols);
		blocks.push([t, Math.floor(p / cols), p % cols]);
	}
	return blocks;
}
