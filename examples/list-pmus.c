// SPDX-License-Identifier: LGPL-2.1-or-later
/* List the PMUs of this machine with their format terms and event aliases. */
#include <stdio.h>
#include <perfev/perfev.h>

int main(void)
{
	struct perfev_pmus *pmus;
	size_t i, k;
	int err;

	err = perfev_pmus_load(NULL, &pmus);
	if (err) {
		fprintf(stderr, "cannot load PMUs: %s\n", perfev_strerror(err));
		return 1;
	}
	for (i = 0; i < perfev_pmus_count(pmus); i++) {
		const struct perfev_pmu *p = perfev_pmus_get(pmus, i);

		printf("%s (type %u)\n", perfev_pmu_name(p), perfev_pmu_type(p));
		for (k = 0; k < perfev_pmu_format_count(p); k++) {
			const struct perfev_format *f = perfev_pmu_format(p, k);

			printf("  term %-12s config%.0u mask %#llx\n", f->name, f->word,
			       (unsigned long long)f->mask);
		}
		for (k = 0; k < perfev_pmu_alias_count(p); k++)
			printf("  event %s = %s\n", perfev_pmu_alias(p, k)->name,
			       perfev_pmu_alias(p, k)->terms);
	}
	perfev_pmus_free(pmus);
	return 0;
}
