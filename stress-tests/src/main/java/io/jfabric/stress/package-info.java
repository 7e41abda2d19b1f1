/**
 * The JCStress campaign over the shm provider's own classes: {@link io.jfabric.stress.StressCampaign} runs the tests,
 * checks that every expected one ran with enough samples and no forbidden outcome, and with {@code --variants} runs
 * each again on the broken variant it must catch ({@link io.jfabric.stress.Catches}). See docs/THREADING.md.
 */
package io.jfabric.stress;
