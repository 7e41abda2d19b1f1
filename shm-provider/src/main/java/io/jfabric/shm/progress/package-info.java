/**
 * Progress and the locks the threading models need: manual progress from CQ and counter reads, automatic progress
 * on Agrona agents ({@link io.jfabric.shm.progress.ProgressRunners}), and {@link io.jfabric.shm.progress.ThreadingGuards},
 * the one place that decides which guards are real under which fi_domain(3) threading model.
 */
package io.jfabric.shm.progress;
