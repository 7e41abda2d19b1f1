/** JCStress tests of races between processes: two mappings of one region, as two processes see it (slots, lanes, key tables, AV entries). */
package io.jfabric.stress.process;
