/** JCStress tests of FI_THREAD_DOMAIN: one thread at a time per domain; races only with other mappings of the region. */
package io.jfabric.stress.domain;
