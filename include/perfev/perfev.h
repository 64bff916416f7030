/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libperfev: Linux performance monitoring on perf_event_open(2).
 * This umbrella header includes the whole public API.
 */
#ifndef PERFEV_PERFEV_H
#define PERFEV_PERFEV_H

#include <perfev/core.h>
#include <perfev/abi.h>
#include <perfev/knobs.h>
#include <perfev/pmu.h>
#include <perfev/tracefs.h>
#include <perfev/event.h>
#include <perfev/attr.h>
#include <perfev/sys.h>
#include <perfev/diag.h>
#include <perfev/reading.h>
#include <perfev/control.h>
#include <perfev/topology.h>
#include <perfev/session.h>
#include <perfev/self.h>
#include <perfev/signal.h>
#include <perfev/record.h>
#include <perfev/ring.h>
#include <perfev/perfdata.h>
#include <perfev/tracing-data.h>
#include <perfev/symbols.h>
#include <perfev/machine.h>
#include <perfev/source.h>
#include <perfev/filter.h>
#include <perfev/insn.h>
#include <perfev/disasm.h>

#endif /* PERFEV_PERFEV_H */
