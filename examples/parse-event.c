// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Parse an event string with libperfev and print the perf_event_attr of
 * each event, then try to open it on this process.
 *
 *   parse-event 'cycles:u,{task-clock,page-faults}'
 */
#include <stdio.h>
#include <unistd.h>
#include <perfev/perfev.h>

static int print_field(const struct perfev_attr_field *f, void *ctx)
{
	(void)ctx;
	if (f->value)
		printf("    %-32s %#llx\n", f->name, (unsigned long long)f->value);
	return 0;
}

int main(int argc, char **argv)
{
	struct perfev_pmus *pmus = NULL;
	struct perfev_evspec *spec = NULL;
	struct perfev_parse_opts opts = {.sz = sizeof(opts)};
	struct perfev_parse_error perr = {.sz = sizeof(perr)};
	int leader_fd = -1, err;
	size_t i;

	if (argc != 2) {
		fprintf(stderr, "usage: %s EVENTS\n", argv[0]);
		return 2;
	}
	err = perfev_pmus_load(NULL, &pmus);
	if (err) {
		fprintf(stderr, "cannot load PMUs: %s\n", perfev_strerror(err));
		return 1;
	}
	opts.pmus = pmus;
	err = perfev_evspec_parse(argv[1], &opts, &spec, &perr);
	if (err) {
		fprintf(stderr, "%s\n%*s^ %s %s\n", argv[1], (int)perr.offset, "", perr.message,
			perr.hint);
		perfev_pmus_free(pmus);
		return 1;
	}
	for (i = 0; i < perfev_evspec_count(spec); i++) {
		struct perfev_event_info info = {.sz = sizeof(info)};
		char why[256];
		int fd;

		perfev_evspec_info(spec, i, &info);
		printf("%s (%s)\n", info.name, perfev_event_kind_name(info.kind));
		perfev_attr_foreach(info.attr, print_field, NULL);
		fd = perfev_sys_open(info.attr, 0, -1, info.leader == (int)i ? -1 : leader_fd, 0);
		if (fd < 0) {
			perfev_diagnose(fd, info.attr, NULL, why, sizeof(why));
			printf("  not opened: %s\n", why);
		} else {
			printf("  opened as fd %d\n", fd);
			if (info.leader == (int)i)
				leader_fd = fd;
		}
	}
	perfev_evspec_free(spec);
	perfev_pmus_free(pmus);
	return 0;
}
