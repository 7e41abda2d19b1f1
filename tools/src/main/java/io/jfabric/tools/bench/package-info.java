/** JMH benchmarks of the data path, memory registration and one-sided copies, and the lane floor measurement. See docs/PERFORMANCE.md. */
package io.jfabric.tools.bench;
