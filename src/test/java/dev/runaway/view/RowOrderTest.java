package dev.runaway.view;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class RowOrderTest {
    private static final long S = 1_000_000_000L;

    @Test
    void freeRowsFollowTheSeverityOrderAndSayWhenTheyMoved() {
        RowOrder order = new RowOrder();
        assertThat(order.order(List.of("a", "b", "c"), 10 * S).keys()).containsExactly("a", "b", "c");
        RowOrder.Shown next = order.order(List.of("c", "a", "b"), 11 * S);
        assertThat(next.keys()).containsExactly("c", "a", "b");
        assertThat(next.moved()).isTrue();
        assertThat(order.order(List.of("c", "a", "b", "d"), 12 * S).moved()).as("a new row at the end moves none").isFalse();
    }

    @Test
    void underThePointerRowsKeepTheirPlacesGoneRowsStayAndNewOnesComeLast() {
        RowOrder order = new RowOrder();
        order.order(List.of("a", "b", "c"), 10 * S);
        order.pointer(true);

        RowOrder.Shown held = order.order(List.of("c", "b", "d"), 11 * S);

        assertThat(held.keys()).containsExactly("a", "b", "c", "d");
        assertThat(held.gone()).containsExactly("a");
        assertThat(held.pending()).isTrue();
        assertThat(held.moved()).isFalse();

        order.pointer(false);
        RowOrder.Shown released = order.order(List.of("c", "b", "d"), 11 * S + 1);
        assertThat(released.keys()).containsExactly("c", "b", "d");
        assertThat(released.moved()).isTrue();
        assertThat(released.gone()).isEmpty();
    }

    @Test
    void aClickOrAKeyHoldsTheOrderForAFewSeconds() {
        RowOrder order = new RowOrder();
        order.order(List.of("a", "b"), 10 * S);
        order.touched(10 * S);
        assertThat(order.order(List.of("b", "a"), 10 * S + RowOrder.SETTLE_NANOS - 1).keys()).containsExactly("a", "b");
        assertThat(order.order(List.of("b", "a"), 10 * S + RowOrder.SETTLE_NANOS).keys()).containsExactly("b", "a");
    }
}
