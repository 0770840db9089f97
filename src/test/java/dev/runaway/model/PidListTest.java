// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.model;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PidListTest {
    @Test
    void holdsTheFirstPidsOfAnArrayAsAListOfIntegers() {
        int[] buffer = {300, 301, 302, 999};
        PidList list = PidList.copyOf(buffer, 3);
        buffer[0] = 1; // a copy: the buffer is reused for the next chain
        assertThat(list).containsExactly(300, 301, 302).isEqualTo(List.of(300, 301, 302));
        assertThat(list.hashCode()).isEqualTo(List.of(300, 301, 302).hashCode());
        assertThat(list.getInt(2)).isEqualTo(302);
        assertThat(list.contains(301)).isTrue();
        assertThat(list.contains(999)).isFalse();
        assertThat(list.sameAs(new int[] {300, 301, 302, 5}, 3)).isTrue();
        assertThat(list.sameAs(new int[] {300, 301, 303}, 3)).isFalse();
        assertThat(list.sameAs(new int[] {300, 301}, 2)).isFalse();
    }

    @Test
    void aOneProcessListAndTheEmptyListBehaveLikeAnyList() {
        PidList one = PidList.of(42);
        assertThat(one).containsExactly(42).isEqualTo(List.of(42));
        assertThat(one.sameAs(new int[] {42, 7}, 1)).isTrue();
        assertThat(one.sameAs(new int[] {42, 7}, 2)).isFalse();
        assertThatThrownBy(() -> one.getInt(1)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThat(PidList.copyOf(new int[0], 0)).isEmpty();
        assertThatThrownBy(() -> PidList.of().get(0)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void cannotBeChanged() {
        PidList list = PidList.of(1, 2);
        assertThatThrownBy(() -> list.add(3)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> list.set(0, 3)).isInstanceOf(UnsupportedOperationException.class);
    }
}
