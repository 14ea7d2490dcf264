/*
 * Puyo Puyo (Baekjoon 11559): a straightforward solution, written from the
 * rules, for the package's accepted submissions. Reads 12 rows of 6
 * characters; pops every group of 4 or more at once, lets the rest fall,
 * and counts the steps in which something popped.
 */
#include <stdio.h>
#include <string.h>

static char field[12][7];
static int seen[12][6];

/* Size of the group of (r, c), marking it with `mark`. */
static int flood(int r, int c, char colour, int mark)
{
	if (r < 0 || r >= 12 || c < 0 || c >= 6 || seen[r][c] || field[r][c] != colour)
		return 0;
	seen[r][c] = mark;
	return 1 + flood(r + 1, c, colour, mark) + flood(r - 1, c, colour, mark) +
	       flood(r, c + 1, colour, mark) + flood(r, c - 1, colour, mark);
}

int main(void)
{
	for (int r = 0; r < 12; r++)
		if (scanf("%6s", field[r]) != 1)
			return 1;
	int chains = 0;
	for (;;) {
		int popped = 0, mark = 0, size[73] = {0};
		memset(seen, 0, sizeof seen);
		for (int r = 0; r < 12; r++)
			for (int c = 0; c < 6; c++)
				if (field[r][c] != '.' && !seen[r][c]) {
					mark++;
					size[mark] = flood(r, c, field[r][c], mark);
				}
		for (int r = 0; r < 12; r++)
			for (int c = 0; c < 6; c++)
				if (seen[r][c] && size[seen[r][c]] >= 4) {
					field[r][c] = '.';
					popped = 1;
				}
		if (!popped)
			break;
		chains++;
		for (int c = 0; c < 6; c++) {
			int to = 11;
			for (int r = 11; r >= 0; r--)
				if (field[r][c] != '.') {
					char p = field[r][c];
					field[r][c] = '.';
					field[to--][c] = p;
				}
		}
	}
	printf("%d\n", chains);
	return 0;
}
