/**
 * Publish/subscribe between processes of one host over a named shm domain: {@link
 * io.jfabric.examples.pubsub.Publisher} sends numbered messages to every subscriber it knows,
 * {@link io.jfabric.examples.pubsub.Subscriber} announces itself to the publisher's well-known address and checks
 * that what it receives arrives intact and in order. Either side may restart; they find each other again.
 * {@link io.jfabric.examples.pubsub.PubSub} holds what both sides agree on: the getinfo hints, the well-known
 * address and the message layout.
 */
package io.jfabric.examples.pubsub;
