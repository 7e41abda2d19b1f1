package io.jfabric.stress;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The broken variant a JCStress test is there to catch ({@code io.jfabric.shm.BrokenVariant}): the campaign runs
 * the test once more with that variant switched on and fails the build unless JCStress then reports a forbidden
 * outcome or an error. Every test of the campaign carries one.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Catches
{
    /** @return the variant's name, as {@code BrokenVariant.active} takes it. */
    String value();
}
