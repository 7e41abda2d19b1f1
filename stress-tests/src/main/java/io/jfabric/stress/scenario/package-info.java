/** Races the stress tests of several threading models run alike (a send racing progress, shared CQ writers, claims), over the provider's classes. */
package io.jfabric.stress.scenario;
