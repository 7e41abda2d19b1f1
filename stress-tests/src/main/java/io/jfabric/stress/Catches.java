/*
 * Copyright 2026 the jfabric authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 * https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.jfabric.stress;

import io.jfabric.shm.core.BrokenVariant;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The broken variant a JCStress test is there to catch ({@code io.jfabric.shm.core.BrokenVariant}): the campaign runs
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
