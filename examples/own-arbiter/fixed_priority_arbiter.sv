// fixed_priority_arbiter: a user's own switch arbiter with IBSC's pin bundle (the ports and
// parameters of rtl/switch_arbiter.sv, models/arbiter_pins.h), for ibsc_add_rtl_arbiter().
// Deliberately not IBSC's policy: no state, inputs served in index order 0..NUM_PORTS-1, each
// taking, among its eligible outputs (candidate, free, credits for the whole packet on its VL)
// not taken by a lower input, the lowest priority level, then the lowest output index.
module fixed_priority_arbiter #(
    parameter int NUM_PORTS = 16,
    parameter int NUM_VLS = 16,
    parameter int CREDIT_W = 16,
    parameter int PRIO_W = 3,
    localparam int PORT_W = (NUM_PORTS > 1) ? $clog2(NUM_PORTS) : 1,
    localparam int VL_W = (NUM_VLS > 1) ? $clog2(NUM_VLS) : 1
) (
    input logic clk,
    input logic rst_n,
    input logic [NUM_PORTS-1:0] req_valid,
    input logic [NUM_PORTS*NUM_PORTS-1:0] req_cand,
    input logic [NUM_PORTS*NUM_PORTS*PRIO_W-1:0] req_prio,
    input logic [NUM_PORTS*VL_W-1:0] req_vl,
    input logic [NUM_PORTS*CREDIT_W-1:0] req_len,
    input logic [NUM_PORTS-1:0] out_busy,
    input logic [NUM_PORTS*NUM_VLS*CREDIT_W-1:0] out_credits,
    output logic [NUM_PORTS-1:0] grant_valid,
    output logic [NUM_PORTS*PORT_W-1:0] grant_port
);

  logic [NUM_PORTS-1:0] taken;
  logic found;
  logic [PORT_W-1:0] best;
  logic [PRIO_W-1:0] best_lv, lv;
  logic [VL_W-1:0] vl;
  logic [CREDIT_W-1:0] credits;

  always_comb begin
    taken = '0;
    grant_valid = '0;
    grant_port = '0;
    found = 1'b0;
    best = '0;
    best_lv = '0;
    lv = '0;
    vl = '0;
    credits = '0;
    for (int i = 0; i < NUM_PORTS; i++) begin
      found = 1'b0;
      best = '0;
      best_lv = '0;
      vl = req_vl[i*VL_W+:VL_W];
      for (int o = 0; o < NUM_PORTS; o++) begin
        lv = req_prio[(i*NUM_PORTS+o)*PRIO_W+:PRIO_W];
        credits = out_credits[(o*NUM_VLS+int'(vl))*CREDIT_W+:CREDIT_W];
        if (req_valid[i] && req_cand[i*NUM_PORTS+o] && !taken[o] && !out_busy[o] &&
            credits >= req_len[i*CREDIT_W+:CREDIT_W] && (!found || lv < best_lv)) begin
          found = 1'b1;
          best = PORT_W'(o);
          best_lv = lv;
        end
      end
      if (found) begin
        taken[best] = 1'b1;
        grant_valid[i] = 1'b1;
        grant_port[i*PORT_W+:PORT_W] = best;
      end
    end
  end

  wire unused = &{1'b0, clk, rst_n};
endmodule
