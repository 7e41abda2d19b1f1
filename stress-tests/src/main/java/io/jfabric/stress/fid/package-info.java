/** JCStress tests of FI_THREAD_FID: different objects (an endpoint and its CQ) used by different threads at once. */
package io.jfabric.stress.fid;
