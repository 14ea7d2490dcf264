/*
 * Baseline of `make bench` goal 4: the straightforward Puyo chain counter a
 * contestant writes for Baekjoon 11559, from the rules only: a char grid,
 * a breadth-first search from every unvisited puyo, popped cells blanked,
 * gravity column by column, until nothing pops. It reads the input of
 * `dropjudge solve puyo --lines`: one field per line, its 12 (or 13) rows
 * of 6 characters separated by single spaces, top row first; and prints
 * one chain count per line. Garbage ('O') never pops and goes when a
 * popped puyo is next to it; groups count only in the 12 visible rows.
 * Input it does not understand ends the run with exit 1.
 */
#include <stdio.h>
#include <string.h>

#define COLS 6

static char grid[13][COLS];
static int rows;

static int is_color(char c)
{
	return c == 'R' || c == 'G' || c == 'B' || c == 'P' || c == 'Y';
}

static void gravity(void)
{
	for (int c = 0; c < COLS; c++) {
		int dst = rows - 1;
		for (int r = rows - 1; r >= 0; r--) {
			if (grid[r][c] != '.') {
				char v = grid[r][c];
				grid[r][c] = '.';
				grid[dst--][c] = v;
			}
		}
	}
}

static int step(void)
{
	static const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
	int top = rows - 12;
	int seen[13][COLS] = {{0}};
	int pop[13][COLS] = {{0}};
	int queue[13 * COLS][2];
	int any = 0;

	for (int r = top; r < rows; r++) {
		for (int c = 0; c < COLS; c++) {
			if (seen[r][c] || !is_color(grid[r][c]))
				continue;
			int head = 0, tail = 0;
			queue[tail][0] = r;
			queue[tail][1] = c;
			tail++;
			seen[r][c] = 1;
			while (head < tail) {
				int qr = queue[head][0], qc = queue[head][1];
				head++;
				for (int k = 0; k < 4; k++) {
					int nr = qr + dr[k], nc = qc + dc[k];
					if (nr < top || nr >= rows || nc < 0 || nc >= COLS)
						continue;
					if (seen[nr][nc] || grid[nr][nc] != grid[r][c])
						continue;
					seen[nr][nc] = 1;
					queue[tail][0] = nr;
					queue[tail][1] = nc;
					tail++;
				}
			}
			if (tail >= 4) {
				any = 1;
				for (int i = 0; i < tail; i++)
					pop[queue[i][0]][queue[i][1]] = 1;
			}
		}
	}
	if (!any)
		return 0;
	for (int r = top; r < rows; r++) {
		for (int c = 0; c < COLS; c++) {
			if (grid[r][c] != 'O')
				continue;
			for (int k = 0; k < 4; k++) {
				int nr = r + dr[k], nc = c + dc[k];
				if (nr >= top && nr < rows && nc >= 0 && nc < COLS && pop[nr][nc]) {
					grid[r][c] = '.';
					break;
				}
			}
		}
	}
	for (int r = top; r < rows; r++)
		for (int c = 0; c < COLS; c++)
			if (pop[r][c])
				grid[r][c] = '.';
	gravity();
	return 1;
}

int main(void)
{
	static char line[256];
	while (fgets(line, sizeof line, stdin)) {
		size_t len = strlen(line);
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		if (len == 12 * 7 - 1)
			rows = 12;
		else if (len == 13 * 7 - 1)
			rows = 13;
		else
			return 1;
		for (int r = 0; r < rows; r++)
			for (int c = 0; c < COLS; c++)
				grid[r][c] = line[r * 7 + c];
		gravity();
		int chains = 0;
		while (step())
			chains++;
		printf("%d\n", chains);
	}
	return 0;
}
