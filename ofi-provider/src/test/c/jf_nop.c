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
/*
 * A native function that does nothing and answers -FI_EAGAIN (-11), put in place of a provider's inject, send or
 * cq_read by OfiDataPathBenchmark's "nop" cases, so that a jfabric call and the raw FFM call of the same function
 * differ only by what jfabric adds. The x86-64 and AArch64 calling conventions let a function that takes no
 * argument be called with any. jf_ok answers 0 instead: a post that is taken.
 */
long jf_nop(void)
{
    return -11;
}

/* As jf_nop, but the call is taken: answers 0 (OfiDataPathBenchmark's successful sends). */
long jf_ok(void)
{
    return 0;
}

/*
 * A send and its completion without a provider (OfiDataPathBenchmark's SendRead cases): jf_send_record takes the send
 * (answers 0) and keeps its context, the last parameter of fi_send; jf_cq_one then answers one FI_CQ_FORMAT_CONTEXT
 * completion for it (struct fi_cq_entry is the op_context alone), as a CQ read after the send was done would.
 */
static void *jf_last_context;

long jf_send_record(void *ep, const void *buf, unsigned long len, void *desc, unsigned long dest, void *context)
{
    (void)ep;
    (void)buf;
    (void)len;
    (void)desc;
    (void)dest;
    jf_last_context = context;
    return 0;
}

long jf_cq_one(void *cq, void *buf, unsigned long count)
{
    (void)cq;
    (void)count;
    *(void **)buf = jf_last_context;
    return 1;
}
