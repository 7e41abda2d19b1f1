/** JCStress tests of FI_THREAD_ENDPOINT: an endpoint serialized, its CQ and other endpoints concurrent. */
package io.jfabric.stress.endpoint;
