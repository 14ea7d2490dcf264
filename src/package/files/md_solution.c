/*
 * Monomino-Domino (Baekjoon 20061): a straightforward solution, written
 * from the rules, for the package's accepted submissions. Green is 6 rows
 * of 4 cells falling down; blue is the same machine turned on its side, so
 * blue is kept as 6 "rows" (its columns, lightest first) of 4 cells (its
 * rows). Reads N, then N lines "t x y"; prints the score and the tiles.
 */
#include <stdio.h>
#include <string.h>

static int board[2][6][4]; /* [green, blue][line, 0 lightest][cell] */

/* Drops cells (line offsets dl[], cells dc[], n of them) into board b. */
static void drop(int b, int n, const int *dl, const int *dc)
{
	int d = 0, fits = 1;
	while (fits) {
		for (int i = 0; i < n; i++)
			fits &= dl[i] + d + 1 <= 5 && !board[b][dl[i] + d + 1][dc[i]];
		d += fits;
	}
	for (int i = 0; i < n; i++)
		board[b][dl[i] + d][dc[i]] = 1;
}

/* Removes line l, moving the lines above it down by one. */
static void remove_line(int b, int l)
{
	memmove(board[b][1], board[b][0], sizeof board[b][0] * (size_t)l);
	memset(board[b][0], 0, sizeof board[b][0]);
}

/* How many cells of line l of board b are filled. */
static int filled(int b, int l)
{
	return board[b][l][0] + board[b][l][1] + board[b][l][2] + board[b][l][3];
}

/* Removes full lines (a point each), then a bottom line per light line used. */
static int settle(int b)
{
	int points = 0;
	for (int l = 5; l >= 0; l--)
		while (filled(b, l) == 4) {
			remove_line(b, l);
			points++;
		}
	for (int k = (filled(b, 0) > 0) + (filled(b, 1) > 0); k > 0; k--)
		remove_line(b, 5);
	return points;
}

int main(void)
{
	int n, score = 0, tiles = 0;
	if (scanf("%d", &n) != 1)
		return 1;
	while (n-- > 0) {
		int t, x, y;
		if (scanf("%d %d %d", &t, &x, &y) != 3)
			return 1;
		/* Cells as (row, col) in red. */
		int rows[2] = {x, t == 3 ? x + 1 : x};
		int cols[2] = {y, t == 2 ? y + 1 : y};
		int cnt = t == 1 ? 1 : 2;
		/* Green: lines are rows (the block starts at the top), cells are columns.
		 * Blue: lines are columns (starts at the left), cells are rows. */
		int gl[2] = {0, rows[1] - rows[0]}, bl[2] = {0, cols[1] - cols[0]};
		drop(0, cnt, gl, cols);
		drop(1, cnt, bl, rows);
		score += settle(0);
		score += settle(1);
	}
	for (int b = 0; b < 2; b++)
		for (int l = 0; l < 6; l++)
			tiles += filled(b, l);
	printf("%d\n%d\n", score, tiles);
	return 0;
}
