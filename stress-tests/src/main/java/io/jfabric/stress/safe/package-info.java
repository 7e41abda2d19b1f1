/** JCStress tests of what FI_THREAD_SAFE promises: any thread on any object, the provider serializes. */
package io.jfabric.stress.safe;
