/** JCStress tests of FI_THREAD_COMPLETION: objects sharing a completion structure serialized, separate groups concurrent. */
package io.jfabric.stress.completion;
