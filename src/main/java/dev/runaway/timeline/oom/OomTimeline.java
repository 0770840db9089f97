// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.timeline.oom;

import dev.runaway.timeline.EventKind;
import dev.runaway.timeline.IncidentRecorder;
import dev.runaway.timeline.Timeline;
import dev.runaway.timeline.TimelineEvent;

/** Out-of-memory kills as events on an incident's timeline, live or from the logs' history. */
public final class OomTimeline {
    private OomTimeline() {
    }

    /** One kill as a timeline event: the kernel's with its victim, oomd's with the processes it took. */
    public static TimelineEvent event(OomEvent e, Timeline timeline) {
        boolean kernel = e.source() == OomEvent.Source.KERNEL;
        String detail = e.summary() + (e.constraint().isEmpty() ? "" : "; " + e.constraint())
                + (e.cgroup().isEmpty() ? "" : "; cgroup " + e.cgroup())
                + (e.rssBytes() > 0 ? "; rss " + (e.rssBytes() >> 20) + " MiB" : "");
        return new TimelineEvent(timeline.secondsOf(e.time()), e.time(), kernel ? EventKind.OOM_KILL : EventKind.OOMD_KILL,
                (kernel ? "oom-kill " : "oomd ") + e.command(), detail, kernel ? 1 : e.processesKilled(),
                kernel ? e.pid() : -1, e.command(), -1);
    }

    /** Watches for kills from now on and records each on the recorder's timeline (and file). */
    public static OomWatcher watch(IncidentRecorder recorder) {
        return OomWatcher.start(e -> recorder.event(event(e, recorder.timeline())));
    }
}
