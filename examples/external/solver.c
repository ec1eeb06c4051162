/* An outside solver for `sudolab compare --external` in C (C99, POSIX).
 *
 * The line protocol (docs/external.md): a header line starting with `sudolab-external` gives
 * the box and the limits; every other line is one puzzle in the line form, answered by one
 * line: `none`, `unique SOLUTION`, `solved SOLUTION`, `multiple SOLUTION SOLUTION` or
 * `unknown REASON`, then `key=value` counters. A backtracker over the most constrained cell,
 * candidate sets as bit masks; any box up to 35x35 boards.
 *
 *   cc -O2 -o solver examples/external/solver.c
 *   sudolab compare -s fast --external c=./solver corpora/reference.txt
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_SIDE 35
#define MAX_CELLS (MAX_SIDE * MAX_SIDE)

static const char SYMBOLS[] = ".123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

static int side, box_rows = 3, box_cols = 3, cells_count;
static int cells[MAX_CELLS], box_of[MAX_CELLS];
static uint64_t rows[MAX_SIDE], cols[MAX_SIDE], boxes[MAX_SIDE];
static int solutions[2][MAX_CELLS], found, want;
static unsigned long long nodes;
static long long deadline_ns; /* 0: no deadline */
static int out_of_time;

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void search(void) {
    nodes++;
    if (deadline_ns && (nodes & 1023) == 0 && now_ns() > deadline_ns) out_of_time = 1;
    if (out_of_time) return;
    uint64_t full = (side == 64) ? ~0ULL : ((1ULL << side) - 1);
    int best = -1, best_count = side + 1;
    uint64_t best_free = 0;
    for (int i = 0; i < cells_count; i++) {
        if (cells[i]) continue;
        uint64_t free_values = full & ~(rows[i / side] | cols[i % side] | boxes[box_of[i]]);
        int count = __builtin_popcountll(free_values);
        if (count < best_count) {
            best = i, best_count = count, best_free = free_values;
            if (count <= 1) break;
        }
    }
    if (best < 0) {
        memcpy(solutions[found], cells, sizeof(int) * cells_count);
        found++;
        return;
    }
    int r = best / side, c = best % side, b = box_of[best];
    while (best_free && found < want && !out_of_time) {
        uint64_t bit = best_free & (~best_free + 1);
        best_free ^= bit;
        cells[best] = __builtin_ctzll(bit) + 1;
        rows[r] |= bit, cols[c] |= bit, boxes[b] |= bit;
        search();
        rows[r] ^= bit, cols[c] ^= bit, boxes[b] ^= bit;
        cells[best] = 0;
    }
}

static void print_grid(const int *grid) {
    char line[MAX_CELLS + 1];
    for (int i = 0; i < cells_count; i++) line[i] = SYMBOLS[grid[i]];
    line[cells_count] = '\0';
    fputs(line, stdout);
}

int main(void) {
    static char line[1 << 16];
    long limit = 2, timeout_ms = 0;
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (strncmp(line, "sudolab-external", 16) == 0) {
            char *word = strtok(line, " ");
            while ((word = strtok(NULL, " ")) != NULL) {
                if (sscanf(word, "box=%dx%d", &box_rows, &box_cols) == 2) continue;
                if (sscanf(word, "limit=%ld", &limit) == 1) continue;
                sscanf(word, "timeout_ms=%ld", &timeout_ms);
            }
            continue;
        }
        long long started = now_ns();
        side = box_rows * box_cols;
        cells_count = (int)strlen(line);
        if (side < 1 || side > MAX_SIDE || cells_count != side * side) {
            printf("unknown expected %d symbols\n", side * side);
            fflush(stdout);
            continue;
        }
        memset(rows, 0, sizeof rows), memset(cols, 0, sizeof cols), memset(boxes, 0, sizeof boxes);
        int conflict = 0;
        for (int i = 0; i < cells_count; i++) {
            int row = i / side, col = i % side;
            box_of[i] = (row / box_rows) * box_rows + col / box_cols;
            const char *at = strchr(SYMBOLS, line[i]);
            cells[i] = (at && line[i] != '\0') ? (int)(at - SYMBOLS) : 0;
            if (cells[i] > side) cells[i] = 0;
            if (cells[i]) {
                uint64_t bit = 1ULL << (cells[i] - 1);
                if ((rows[row] | cols[col] | boxes[box_of[i]]) & bit) conflict = 1;
                rows[row] |= bit, cols[col] |= bit, boxes[box_of[i]] |= bit;
            }
        }
        /* Two solutions decide uniqueness; a limit of 1 asks for one solution only. */
        want = (limit == 1) ? 1 : 2;
        found = 0, nodes = 0, out_of_time = 0;
        deadline_ns = timeout_ms ? started + timeout_ms * 1000000LL : 0;
        if (!conflict) search();
        if (out_of_time) {
            puts("unknown out of time");
        } else {
            if (found == 0) {
                fputs("none", stdout);
            } else if (want == 1) {
                fputs("solved ", stdout), print_grid(solutions[0]);
            } else if (found == 1) {
                fputs("unique ", stdout), print_grid(solutions[0]);
            } else {
                fputs("multiple ", stdout), print_grid(solutions[0]);
                fputc(' ', stdout), print_grid(solutions[1]);
            }
            printf(" nodes=%llu time_ns=%lld\n", nodes, now_ns() - started);
        }
        fflush(stdout);
    }
    return 0;
}
