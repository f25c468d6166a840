// switch_arbiter: one per switch, matches requesting input ports to free output ports in one
// core-clock cycle. Cycle-exact twin of models/adaptive_arbiter.cpp (AdaptiveArbiter).
//
// Ports (flat packed vectors so the Verilated pins are plain words; element k of a per-port
// field sits at bits [k*W +: W]):
//   req_valid[i]                     input i requests this cycle
//   req_cand [i*NUM_PORTS + o]       output o is a candidate of input i (LFT entry = port set)
//   req_prio [(i*NUM_PORTS+o)*PRIO_W] priority level of candidate o for input i, 0 = preferred
//   req_vl   [i*VL_W]                output VL of input i's packet
//   req_len  [i*CREDIT_W]            packet length in 64-byte credits
//   out_busy [o]                     output o is still sending
//   out_credits[(o*NUM_VLS+v)*CREDIT_W] free downstream credits of output o on VL v
//   grant_valid[i], grant_port[i*PORT_W]  combinational result of this cycle
// State: in_ptr_q, out_ptr_q (round-robin pointers), grant_*_q (registered copy for waves).
// Simulation only: assertions on the matching (see the end), compiled with verilator --assert.
//
// Policy, evaluated combinationally before the rising edge:
//   1. (i,o) is eligible when req_valid[i], req_cand[i][o], !out_busy[o] and
//      out_credits[o][req_vl[i]] >= req_len[i] (virtual cut-through: credits for the whole
//      packet; BROKEN_SKIP_CREDIT_CHECK=1 drops this term, the deliberately broken variant).
//   2. Inputs are served one after the other in the order in_ptr_q, in_ptr_q+1, ... (mod
//      NUM_PORTS). Each takes, among its eligible outputs not taken by an earlier input, the
//      lowest priority level; among those the most credits on its VL; among those the first met
//      scanning outputs cyclically from out_ptr_q.
//   3. On the rising edge, if anything was granted, in_ptr_q moves to one past the FIRST granted
//      input in service order and out_ptr_q to one past that input's output. (Moving past the
//      first rather than the last grant means a waiting input becomes the head of the order
//      within NUM_PORTS granting cycles, so no input starves.)
// The switch clocks this block only on edges with at least one valid request, so the pointers
// move only then. The serial input loop is a combinational chain of NUM_PORTS selection stages;
// it states the policy exactly and is fine for the model, a fast implementation would pipeline it.
module switch_arbiter #(
    parameter int NUM_PORTS = 16,
    parameter int NUM_VLS = 16,
    parameter int CREDIT_W = 16,
    parameter int PRIO_W = 3,
    parameter int BROKEN_SKIP_CREDIT_CHECK = 0,  // 1: deliberately broken, no credit check
    localparam int PORT_W = (NUM_PORTS > 1) ? $clog2(NUM_PORTS) : 1,
    localparam int VL_W = (NUM_VLS > 1) ? $clog2(NUM_VLS) : 1
) (
    input logic clk,
    input logic rst_n,  // synchronous, active low
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

  // ---- Unpacked views: same bits, named per port so waves read naturally ----
  logic [NUM_PORTS-1:0] cand[NUM_PORTS];
  logic [PRIO_W-1:0] prio[NUM_PORTS][NUM_PORTS];
  logic [VL_W-1:0] vl[NUM_PORTS];
  logic [CREDIT_W-1:0] len[NUM_PORTS];
  logic [CREDIT_W-1:0] credits[NUM_PORTS][NUM_VLS];
  // Credits output o offers on input i's VL: what the credit check and the tie-break compare.
  logic [CREDIT_W-1:0] cred_seen[NUM_PORTS][NUM_PORTS];
  logic [NUM_PORTS-1:0] eligible[NUM_PORTS];

  always_comb begin
    for (int i = 0; i < NUM_PORTS; i++) begin
      cand[i] = req_cand[i*NUM_PORTS+:NUM_PORTS];
      vl[i]   = req_vl[i*VL_W+:VL_W];
      len[i]  = req_len[i*CREDIT_W+:CREDIT_W];
      for (int o = 0; o < NUM_PORTS; o++) prio[i][o] = req_prio[(i*NUM_PORTS+o)*PRIO_W+:PRIO_W];
    end
    for (int o = 0; o < NUM_PORTS; o++)
      for (int v = 0; v < NUM_VLS; v++) credits[o][v] = out_credits[(o*NUM_VLS+v)*CREDIT_W+:CREDIT_W];
  end

  always_comb begin
    for (int i = 0; i < NUM_PORTS; i++) begin
      for (int o = 0; o < NUM_PORTS; o++) begin
        cred_seen[i][o] = credits[o][vl[i]];
        eligible[i][o] = req_valid[i] && cand[i][o] && !out_busy[o] &&
            (BROKEN_SKIP_CREDIT_CHECK != 0 || cred_seen[i][o] >= len[i]);
      end
    end
  end

  // ---- Serial allocation ----
  logic [PORT_W-1:0] in_ptr_q, out_ptr_q;
  logic [NUM_PORTS-1:0] gnt_valid;
  logic [PORT_W-1:0] gnt_port[NUM_PORTS];
  // Observability only: read by the waves, not by the logic.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [PRIO_W-1:0] gnt_prio[NUM_PORTS];       // level of the granted candidate
  logic [CREDIT_W-1:0] gnt_credits[NUM_PORTS];  // credits the granted output had on the VL
  /* verilator lint_on UNUSEDSIGNAL */
  logic [NUM_PORTS-1:0] taken;
  logic first_found;
  logic [PORT_W-1:0] first_in, first_out;
  logic [PORT_W-1:0] in_ptr_d, out_ptr_d;

  // (base + step) mod NUM_PORTS for base < NUM_PORTS, step < NUM_PORTS.
  function automatic logic [PORT_W-1:0] rotate(input logic [PORT_W-1:0] base, input int step);
    int sum;
    sum = int'(base) + step;
    if (sum >= NUM_PORTS) sum = sum - NUM_PORTS;
    return PORT_W'(sum);
  endfunction

  always_comb begin
    logic found;
    logic [PORT_W-1:0] i, o, best_o;
    logic [PRIO_W-1:0] best_p;
    logic [CREDIT_W-1:0] best_c;
    taken = '0;
    gnt_valid = '0;
    first_found = 1'b0;
    first_in = '0;
    first_out = '0;
    for (int k = 0; k < NUM_PORTS; k++) begin
      gnt_port[k] = '0;
      gnt_prio[k] = '0;
      gnt_credits[k] = '0;
    end
    for (int k = 0; k < NUM_PORTS; k++) begin
      i = rotate(in_ptr_q, k);
      found = 1'b0;
      best_o = '0;
      best_p = '0;
      best_c = '0;
      for (int m = 0; m < NUM_PORTS; m++) begin
        o = rotate(out_ptr_q, m);
        // Strict comparisons: on a full tie the first output met from out_ptr_q stays.
        if (eligible[i][o] && !taken[o] &&
            (!found || prio[i][o] < best_p || (prio[i][o] == best_p && cred_seen[i][o] > best_c))) begin
          found  = 1'b1;
          best_o = o;
          best_p = prio[i][o];
          best_c = cred_seen[i][o];
        end
      end
      if (found) begin
        taken[best_o] = 1'b1;
        gnt_valid[i] = 1'b1;
        gnt_port[i] = best_o;
        gnt_prio[i] = best_p;
        gnt_credits[i] = best_c;
        if (!first_found) begin
          first_found = 1'b1;
          first_in = i;
          first_out = best_o;
        end
      end
    end
    in_ptr_d  = rotate(first_in, 1);
    out_ptr_d = rotate(first_out, 1);
  end

  always_comb begin
    grant_valid = gnt_valid;
    for (int i = 0; i < NUM_PORTS; i++) grant_port[i*PORT_W+:PORT_W] = gnt_port[i];
  end

  // ---- State ----
  // What was granted on the last edge; observability only, like gnt_prio.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [NUM_PORTS-1:0] grant_valid_q;
  logic [PORT_W-1:0] grant_port_q[NUM_PORTS];
  /* verilator lint_on UNUSEDSIGNAL */

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      in_ptr_q <= '0;
      out_ptr_q <= '0;
      grant_valid_q <= '0;
      for (int i = 0; i < NUM_PORTS; i++) grant_port_q[i] <= '0;
    end else begin
      if (first_found) begin
        in_ptr_q  <= in_ptr_d;
        out_ptr_q <= out_ptr_d;
      end
      grant_valid_q <= gnt_valid;
      for (int i = 0; i < NUM_PORTS; i++) grant_port_q[i] <= gnt_port[i];
    end
  end

`ifndef SYNTHESIS
  // Matching invariants, independent of the policy: a grant goes to a requesting input, for
  // one of its candidates, on a free output, and no output is granted twice. (The credit rule
  // is left to the co-verification, so the broken variant still runs to its mismatch.)
  always_comb begin : check_matching
    logic [NUM_PORTS-1:0] used;
    used = '0;
    for (int i = 0; i < NUM_PORTS; i++) begin
      if (gnt_valid[i]) begin
        assert (req_valid[i] && cand[i][gnt_port[i]] && !out_busy[gnt_port[i]] && !used[gnt_port[i]])
        else $error("switch_arbiter: illegal grant to input %0d", i);
        used[gnt_port[i]] = 1'b1;
      end
    end
  end
`endif

endmodule
