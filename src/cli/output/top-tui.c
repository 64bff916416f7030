// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perfev top's full-screen interface (ncurses): the status line, the
 * table with a selected line, the callers of expanded lines, a prompt
 * for the sort keys and the filter, a help screen.  Keys are read
 * without blocking, so the rings are read while a prompt is open; the
 * terminal is put back by top_tui_close(), which the command also calls
 * at exit.
 */
#include <curses.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "top.h"

#define MAX_EXPANDED 32

enum prompt { PROMPT_NONE, PROMPT_FILTER, PROMPT_SORT };

struct top_tui {
	SCREEN *scr;
	bool open, help;
	size_t sel, first; /* the selected line, the first one shown */
	const struct top_entry *expanded[MAX_EXPANDED];
	size_t nexpanded;
	enum prompt prompt;
	char input[128];
	size_t ninput;
	char message[160];
};

static struct top_tui the_tui;

static const char *const help_lines[] = {
    "perfev top keys",
    "",
    "  Up/Down, PgUp/PgDn, Home/End   select a line",
    "  Enter, +, e                    show or hide the callers of the selected line (-g)",
    "  s                              sort keys: comm, pid, dso, sym, comma separated",
    "  /, f                           filter: a substring of comm, dso or symbol;",
    "                                 comm:TEXT, dso:TEXT or sym:TEXT for one of them;",
    "                                 empty to show everything",
    "  p, space                       pause or resume the display (samples are not counted)",
    "  z                              zero the table",
    "  h, ?                           this help (any key closes it)",
    "  q, Ctrl-C                      quit",
    "",
    "In a prompt: Enter applies, Escape cancels, Backspace erases.",
    NULL,
};

int top_tui_open(struct top_tui **out)
{
	struct top_tui *t = &the_tui;
	const char *term = getenv("TERM");

	if (!term || !*term || !strcmp(term, "dumb") || !isatty(STDIN_FILENO))
		return -1;
	/* newterm(), not initscr(): a terminal it cannot set up is an error, not an exit. */
	t->scr = newterm(NULL, stdout, stdin);
	if (!t->scr)
		return -1;
	set_term(t->scr);
	t->open = true;
	cbreak(); /* Ctrl-C stays a signal: the command restores the terminal on it */
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	curs_set(0);
	*out = t;
	return 0;
}

void top_tui_close(struct top_tui *t)
{
	if (!t || !t->open)
		return;
	t->open = false;
	curs_set(1);
	endwin();
	delscreen(t->scr);
	t->scr = NULL;
	fflush(stdout);
}

int top_tui_fd(const struct top_tui *t)
{
	(void)t;
	return STDIN_FILENO;
}

void top_tui_resize(struct top_tui *t)
{
	struct winsize ws;

	if (!t->open || ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) || !ws.ws_row || !ws.ws_col)
		return;
	resizeterm(ws.ws_row, ws.ws_col);
	clear();
}

static bool is_expanded(const struct top_tui *t, const struct top_entry *e, size_t *at)
{
	size_t i;

	for (i = 0; i < t->nexpanded; i++)
		if (t->expanded[i] == e) {
			if (at)
				*at = i;
			return true;
		}
	return false;
}

static void toggle(struct top_tui *t, const struct top_hist *h)
{
	const struct top_entry *e;
	size_t at;

	if (t->sel >= h->nsorted)
		return;
	e = h->sorted[t->sel];
	if (!e->nchains) {
		snprintf(t->message, sizeof(t->message),
			 "no callers of this line: sample with -g or --call-graph to see them");
		return;
	}
	if (is_expanded(t, e, &at)) {
		t->expanded[at] = t->expanded[--t->nexpanded];
		return;
	}
	if (t->nexpanded == MAX_EXPANDED)
		t->nexpanded--;
	t->expanded[t->nexpanded++] = e;
}

/* A prompt's text is done: apply it. */
static enum top_action apply_prompt(struct top_tui *t, struct top_hist *h, struct top_filter *f)
{
	enum prompt p = t->prompt;
	const char *bad;

	t->prompt = PROMPT_NONE;
	t->input[t->ninput] = 0;
	if (p == PROMPT_FILTER) {
		snprintf(f->text, sizeof(f->text), "%s", t->input);
		t->sel = t->first = 0;
		return TOP_RESORT;
	}
	if (!t->ninput)
		return TOP_REDRAW;
	if (top_hist_set_sort(h, t->input, &bad)) {
		snprintf(t->message, sizeof(t->message),
			 "unknown sort key '%.*s': give comm, pid, dso, sym, comma separated",
			 (int)strcspn(bad, ","), bad);
		return TOP_REDRAW;
	}
	t->nexpanded = 0;
	t->sel = t->first = 0;
	return TOP_RESORT;
}

static enum top_action prompt_key(struct top_tui *t, int c, struct top_hist *h,
				  struct top_filter *f)
{
	if (c == '\n' || c == '\r' || c == KEY_ENTER)
		return apply_prompt(t, h, f);
	if (c == 27) { /* Escape */
		t->prompt = PROMPT_NONE;
		return TOP_REDRAW;
	}
	if (c == KEY_BACKSPACE || c == 127 || c == 8) {
		if (t->ninput)
			t->ninput--;
	} else if (c >= 32 && c < 127 && t->ninput + 1 < sizeof(t->input)) {
		t->input[t->ninput++] = (char)c;
	}
	return TOP_REDRAW;
}

static void open_prompt(struct top_tui *t, enum prompt p, const char *initial)
{
	t->prompt = p;
	snprintf(t->input, sizeof(t->input), "%s", initial);
	t->ninput = strlen(t->input);
}

enum top_action top_tui_keys(struct top_tui *t, struct top_hist *h, struct top_filter *f)
{
	enum top_action act = TOP_NONE, a;

	size_t page = LINES > 4 ? (size_t)LINES - 4 : 1;
	int c;

	while ((c = getch()) != ERR) {
		a = TOP_REDRAW;
		t->message[0] = 0;
		if (c == KEY_RESIZE) {
			/*
			 * resizeterm() (top_tui_resize(), at SIGWINCH) queues this: the
			 * size is known already, only the screen is drawn again.
			 */
		} else if (t->prompt != PROMPT_NONE) {
			a = prompt_key(t, c, h, f);
		} else if (t->help) {
			t->help = false;
		} else {
			switch (c) {
			case 'q':
			case 'Q':
				return TOP_QUIT;
			case 'h':
			case '?':
				t->help = true;
				break;
			case KEY_UP:
			case 'k':
				t->sel -= t->sel > 0;
				break;
			case KEY_DOWN:
			case 'j':
				t->sel += t->sel + 1 < h->nsorted;
				break;
			case KEY_PPAGE:
				t->sel = t->sel > page ? t->sel - page : 0;
				break;
			case KEY_NPAGE:
				t->sel += page;
				if (t->sel >= h->nsorted)
					t->sel = h->nsorted ? h->nsorted - 1 : 0;
				break;
			case KEY_HOME:
				t->sel = 0;
				break;
			case KEY_END:
				t->sel = h->nsorted ? h->nsorted - 1 : 0;
				break;
			case '\n':
			case '\r':
			case KEY_ENTER:
			case '+':
			case 'e':
				toggle(t, h);
				break;
			case 's':
				open_prompt(t, PROMPT_SORT, "");
				break;
			case '/':
			case 'f':
				open_prompt(t, PROMPT_FILTER, f->text);
				break;
			case 'p':
			case 'P':
			case ' ':
				a = TOP_PAUSE;
				break;
			case 'z':
				t->nexpanded = 0;
				a = TOP_ZERO;
				break;
			default:
				snprintf(t->message, sizeof(t->message),
					 "no action for that key: h shows the keys");
				break;
			}
		}
		/* An action for the loop goes at once; the keys after it wait for the next read. */
		if (a != TOP_REDRAW)
			return a;
		act = TOP_REDRAW;
	}
	return act;
}

/* A line of text at row @y, cut to the screen's width, with @attr. */
static void put(int y, const char *s, attr_t attr)
{
	attron(attr);
	mvaddnstr(y, 0, s, COLS);
	/* Reverse video to the end of the row for the bars. */
	if (attr & A_REVERSE) {
		int x = (int)strlen(s);

		for (; x < COLS; x++)
			mvaddch(y, x, ' ');
	}
	attroff(attr);
}

static void draw_help(void)
{
	int i;

	for (i = 0; help_lines[i] && i + 1 < LINES; i++)
		put(i + 1, help_lines[i], i ? A_NORMAL : A_BOLD);
}

void top_tui_draw(struct top_tui *t, struct top_hist *h, const struct top_status *st)
{
	const struct top_chain *chains[TOP_MAX_CHAINS];
	int rows = LINES - 3, y = 2;
	size_t i, k, n, shown;
	struct top_columns c;
	char line[1024];

	if (!t->open)
		return;
	erase();
	top_format_status(line, sizeof(line), h, st);
	put(0, line, A_REVERSE);
	if (t->help) {
		draw_help();
		put(LINES - 1, "any key: back to the table", A_REVERSE);
		refresh();
		return;
	}
	n = st->entries && st->entries < h->nsorted ? st->entries : h->nsorted;
	if (t->sel >= n)
		t->sel = n ? n - 1 : 0;
	if (rows < 1)
		rows = 1;
	/* The selected line stays in view. */
	if (t->sel < t->first)
		t->first = t->sel;
	if (t->sel >= t->first + (size_t)rows)
		t->first = t->sel - (size_t)rows + 1;
	top_columns(h, t->first, (size_t)rows, &c);
	top_format_header(line, sizeof(line), h, st, &c);
	put(1, line, A_BOLD);
	for (i = t->first, shown = 0; i < n && y < 2 + rows; i++, shown++) {
		const struct top_entry *e = h->sorted[i];

		top_format_line(line, sizeof(line), h, st, &c, e);
		put(y++, line, i == t->sel ? A_REVERSE : A_NORMAL);
		if (!is_expanded(t, e, NULL))
			continue;
		k = top_chains_sorted(e, chains);
		for (size_t j = 0; j < k && y < 2 + rows; j++) {
			top_format_chain(line, sizeof(line), e, chains[j]);
			put(y++, line, A_DIM);
		}
	}
	if (!n)
		put(3, st->paused ? "  (paused)" : "  (no samples yet)", A_DIM);
	if (t->prompt != PROMPT_NONE) {
		char sort[64];

		top_hist_sort_name(h, sort, sizeof(sort));
		if (t->prompt == PROMPT_SORT)
			snprintf(line, sizeof(line), "sort keys (comm,pid,dso,sym; now %s): %.*s_",
				 sort, (int)t->ninput, t->input);
		else
			snprintf(
			    line, sizeof(line),
			    "filter (TEXT, comm:TEXT, dso:TEXT or sym:TEXT; empty: none): %.*s_",
			    (int)t->ninput, t->input);
		put(LINES - 1, line, A_REVERSE);
	} else if (t->message[0]) {
		put(LINES - 1, t->message, A_REVERSE);
	} else {
		put(LINES - 1,
		    "h: help  q: quit  s: sort  /: filter  Enter: callers  p: pause  z: zero",
		    A_REVERSE);
	}
	refresh();
}
