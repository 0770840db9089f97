// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.stop.helper;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The helper's reply lines are parsed once, at the edge, into a typed code the actuator decides on. */
class HelperReplyTest {
    @Test
    void eachWireCodeBecomesItsType() {
        assertThat(HelperClient.Reply.parse("OK")).isEqualTo(new HelperClient.Reply(true, HelperClient.Code.OK, ""));
        assertThat(HelperClient.Reply.parse("OK runaway-helper 3")).isEqualTo(new HelperClient.Reply(true, HelperClient.Code.OK, "runaway-helper 3"));
        assertThat(HelperClient.Reply.parse("ERR gone").code()).isEqualTo(HelperClient.Code.GONE);
        assertThat(HelperClient.Reply.parse("ERR refused no confirmed stop"))
                .isEqualTo(new HelperClient.Reply(false, HelperClient.Code.REFUSED, "no confirmed stop"));
        assertThat(HelperClient.Reply.parse("ERR usage bad verb").code()).isEqualTo(HelperClient.Code.USAGE);
        assertThat(HelperClient.Reply.parse("ERR failed Permission denied").code()).isEqualTo(HelperClient.Code.FAILED);
    }

    @Test
    void whatTheProtocolDoesNotKnowIsAFailureNeverGone() {
        assertThat(HelperClient.Reply.parse("ERR ok yes").code()).as("OK is no error code").isEqualTo(HelperClient.Code.FAILED);
        assertThat(HelperClient.Reply.parse("ERR GONE").code()).as("codes are lower case on the wire").isEqualTo(HelperClient.Code.FAILED);
        assertThat(HelperClient.Reply.parse("hello").code()).isEqualTo(HelperClient.Code.FAILED);
        assertThat(HelperClient.Reply.parse(null).ok()).isFalse();
    }
}
