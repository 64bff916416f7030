/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The tracefs fixture tree (tests/data/tracefs), for the unit tests that read formats. */
#ifndef PERFEV_TEST_TRACEFS_FIXTURE_H
#define PERFEV_TEST_TRACEFS_FIXTURE_H

#include <stdio.h>
#include <perfev/tracefs.h>
#include "harness.h"

/* The fixture's path, set by open_fixture(). */
static char tfs_path[4096];

/* A handle on the fixture tree, or NULL. */
static inline struct perfev_tracefs *open_fixture(void)
{
	struct perfev_tracefs_opts o = {.sz = sizeof(o)};
	struct perfev_tracefs *t = NULL;

	snprintf(tfs_path, sizeof(tfs_path), "%s", test_data("tracefs"));
	o.path = tfs_path;
	if (perfev_tracefs_open(&o, &t))
		return NULL;
	return t;
}

#endif /* PERFEV_TEST_TRACEFS_FIXTURE_H */
