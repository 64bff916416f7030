// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Count events for a command with a libperfev session, the way
 * perfev stat does at its core.
 *
 *   count 'task-clock,page-faults' ls -l
 */
#include <stdio.h>
#include <sys/wait.h>
#include <perfev/perfev.h>

int main(int argc, char **argv)
{
	struct perfev_target target = {.sz = sizeof(target), .kind = PERFEV_TARGET_COMMAND};
	struct perfev_session_error serr = {.sz = sizeof(serr)};
	struct perfev_parse_error perr = {.sz = sizeof(perr)};
	struct perfev_session *session;
	struct perfev_evspec *spec;
	int status, err;
	size_t i;

	if (argc < 3) {
		fprintf(stderr, "usage: %s EVENTS COMMAND [ARGS]\n", argv[0]);
		return 2;
	}
	err = perfev_evspec_parse(argv[1], NULL, &spec, &perr);
	if (err) {
		fprintf(stderr, "%s: %s\n", argv[1], perr.message);
		return 1;
	}
	err = perfev_session_new(spec, NULL, &session);
	perfev_evspec_free(spec);
	if (err)
		return 1;
	target.argv = argv + 2;
	err = perfev_session_open(session, &target, &serr);
	if (!err)
		err = perfev_session_start(session);
	if (err) {
		fprintf(stderr, "cannot count: %s\n",
			serr.message[0] ? serr.message : perfev_strerror(err));
		perfev_session_free(session);
		return 1;
	}
	waitpid(perfev_session_child(session), &status, 0);
	perfev_session_read(session);
	for (i = 0; i < perfev_session_event_count(session); i++) {
		struct perfev_count c;

		if (perfev_session_event_state(session, i) != PERFEV_EVENT_OPEN) {
			printf("%20s  %s\n", "not supported",
			       perfev_session_event_name(session, i));
			continue;
		}
		perfev_session_count(session, i, PERFEV_AGGR_GLOBAL, 0, &c);
		printf("%20llu  %s", (unsigned long long)c.scaled,
		       perfev_session_event_name(session, i));
		if (c.running < c.enabled)
			printf("  (running %.1f%% of the time)", 100.0 * c.running / c.enabled);
		putchar('\n');
	}
	perfev_session_free(session);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
