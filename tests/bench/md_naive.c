/*
 * Baseline of `make bench` goal 3: the straightforward Monomino-Domino
 * solver a contestant writes for Baekjoon 20061, from the rules only:
 * scanf for every integer, int arrays for the boards, the block slid one
 * cell at a time, full lines and the light area shifted cell by cell.
 * Reads the Baekjoon input on stdin, prints "score\ntiles\n".
 */
#include <stdio.h>

static int green[6][4]; /* [row][col], row 5 the floor */
static int blue[4][6];	/* [row][col], col 5 the floor */

static void green_shift_down(int row)
{
	for (int r = row; r > 0; r--)
		for (int c = 0; c < 4; c++)
			green[r][c] = green[r - 1][c];
	for (int c = 0; c < 4; c++)
		green[0][c] = 0;
}

static void blue_shift_right(int col)
{
	for (int c = col; c > 0; c--)
		for (int r = 0; r < 4; r++)
			blue[r][c] = blue[r][c - 1];
	for (int r = 0; r < 4; r++)
		blue[r][0] = 0;
}

static int settle_green(void)
{
	int points = 0;
	for (int r = 5; r >= 0; r--) {
		int full = 1;
		for (int c = 0; c < 4; c++)
			full &= green[r][c];
		if (full) {
			green_shift_down(r);
			points++;
			r++;
		}
	}
	int k = 0;
	for (int r = 0; r < 2; r++) {
		int used = 0;
		for (int c = 0; c < 4; c++)
			used |= green[r][c];
		k += used;
	}
	for (int i = 0; i < k; i++)
		green_shift_down(5);
	return points;
}

static int settle_blue(void)
{
	int points = 0;
	for (int c = 5; c >= 0; c--) {
		int full = 1;
		for (int r = 0; r < 4; r++)
			full &= blue[r][c];
		if (full) {
			blue_shift_right(c);
			points++;
			c++;
		}
	}
	int k = 0;
	for (int c = 0; c < 2; c++) {
		int used = 0;
		for (int r = 0; r < 4; r++)
			used |= blue[r][c];
		k += used;
	}
	for (int i = 0; i < k; i++)
		blue_shift_right(5);
	return points;
}

int main(void)
{
	int n;
	long score = 0;
	if (scanf("%d", &n) != 1)
		return 1;
	for (int i = 0; i < n; i++) {
		int t, x, y;
		if (scanf("%d %d %d", &t, &x, &y) != 3)
			return 1;
		/* cells of the block in red: (x, y) and, for a domino, the next one */
		int n2 = t == 1 ? 1 : 2;
		int xs[2] = {x, t == 3 ? x + 1 : x};
		int ys[2] = {y, t == 2 ? y + 1 : y};

		/* green: slide down row by row */
		int row = -1;
		for (;;) {
			int ok = 1;
			for (int k = 0; k < n2; k++) {
				int r = row + 1 + (xs[k] - xs[0]);
				if (r > 5 || green[r][ys[k]])
					ok = 0;
			}
			if (!ok)
				break;
			row++;
		}
		for (int k = 0; k < n2; k++)
			green[row + (xs[k] - xs[0])][ys[k]] = 1;

		/* blue: slide right column by column */
		int col = -1;
		for (;;) {
			int ok = 1;
			for (int k = 0; k < n2; k++) {
				int c = col + 1 + (ys[k] - ys[0]);
				if (c > 5 || blue[xs[k]][c])
					ok = 0;
			}
			if (!ok)
				break;
			col++;
		}
		for (int k = 0; k < n2; k++)
			blue[xs[k]][col + (ys[k] - ys[0])] = 1;

		score += settle_green() + settle_blue();
	}
	int tiles = 0;
	for (int r = 0; r < 6; r++)
		for (int c = 0; c < 4; c++)
			tiles += green[r][c];
	for (int r = 0; r < 4; r++)
		for (int c = 0; c < 6; c++)
			tiles += blue[r][c];
	printf("%ld\n%d\n", score, tiles);
	return 0;
}
