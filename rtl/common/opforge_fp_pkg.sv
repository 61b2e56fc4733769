// opforge_fp_pkg.sv - fp32 round-and-pack, bf16/fp16 fused multiply-add and precision rounding shared by the RTL blocks.
//
// Numbers inside the package are (sign, integer significand, exponent of the
// significand's LSB): value = sig * 2^e. round_pack() turns one into an fp32
// bit pattern with a single round-to-nearest-even, subnormals kept (no flush
// to zero) and overflow to infinity. The C++ mirror is
// rtl/include/opforge/rtl/fp_bits.h.
package opforge_fp_pkg;

  localparam logic [31:0] QNAN = 32'h7FC0_0000;
  // Exponent given to a zero operand so that it always aligns below the other.
  localparam int ZERO_EXP = -4000;

  // Position of the leading one of v (0 when v == 0).
  function automatic int msb_pos64(input logic [63:0] v);
    logic [63:0] x;
    int p;
    x = v;
    p = 0;
    if (x[63:32] != 32'd0) begin p = p + 32; x = x >> 32; end
    if (x[31:16] != 16'd0) begin p = p + 16; x = x >> 16; end
    if (x[15:8] != 8'd0) begin p = p + 8; x = x >> 8; end
    if (x[7:4] != 4'd0) begin p = p + 4; x = x >> 4; end
    if (x[3:2] != 2'd0) begin p = p + 2; x = x >> 2; end
    if (x[1] != 1'b0) begin p = p + 1; end
    return p;
  endfunction

  // Position of the leading one of a 24-bit value (0 when v == 0).
  function automatic int msb_pos24(input logic [23:0] v);
    logic [23:0] x;
    int p;
    x = v;
    p = 0;
    if (x[23:16] != 8'd0) begin p = p + 16; x = x >> 16; end
    if (x[15:8] != 8'd0) begin p = p + 8; x = x >> 8; end
    if (x[7:4] != 4'd0) begin p = p + 4; x = x >> 4; end
    if (x[3:2] != 2'd0) begin p = p + 2; x = x >> 2; end
    if (x[1] != 1'b0) begin p = p + 1; end
    return p;
  endfunction

  // Round sign * sig * 2^e to fp32, nearest-even (ties away from zero when
  // tie_away is set: the injected fault). 0 < sig < 2^63.
  function automatic logic [31:0] round_pack(input logic sign, input logic [63:0] sig,
                                             input int e, input logic tie_away);
    int lead, sh, sh_sub, eb;
    logic [63:0] rem, half;
    logic [24:0] m;
    logic up;
    if (sig[63:53] == 11'd1) lead = 53;
    else if (sig[63:52] == 12'd1) lead = 52;
    else lead = msb_pos64(sig);
    sh = lead - 23;
    sh_sub = -149 - e;
    if (sh_sub > sh) sh = sh_sub;
    eb = e + sh + 150;
    up = 1'b0;
    if (sh <= 0) begin
      m = 25'(sig << (-sh));
    end else if (sh > 63) begin
      m = 25'd0;  // below half of the smallest subnormal (sig < 2^63)
    end else begin
      m = 25'(sig >> sh);
      rem = sig & ((64'd1 << sh) - 64'd1);
      half = 64'd1 << (sh - 1);
      up = (rem > half) || (rem == half && (m[0] || tie_away));
    end
    m = m + {24'd0, up};
    if (m[24]) begin
      m = m >> 1;
      eb = eb + 1;
    end
    if (!m[23]) return {sign, 8'd0, m[22:0]};
    if (eb >= 255) return {sign, 8'hFF, 23'd0};
    return {sign, eb[7:0], m[22:0]};
  endfunction

  // Normalize a 24-bit significand so its leading one is at bit 23.
  function automatic void norm24(inout logic [23:0] m, inout int e);
    int shift;
    if (m[23]) return;
    if (m[22]) begin
      m = m << 1;
      e = e - 1;
      return;
    end
    if (m == 24'd0) begin
      e = ZERO_EXP;
      return;
    end
    shift = 23 - msb_pos24(m);
    m = m << shift;
    e = e - shift;
  endfunction

  // Decode the magnitude of a bf16 (fp16 = 0) or fp16 (fp16 = 1) value:
  // class bits and |value| = m * 2^e with an 11-bit significand.
  function automatic void decode16(input logic [14:0] v, input logic fp16, output logic nan,
                                   output logic inf, output logic zero, output logic [10:0] m,
                                   output int e);
    zero = v[14:0] == 15'd0;
    if (fp16) begin
      nan = v[14:10] == 5'h1F && v[9:0] != 10'd0;
      inf = v[14:10] == 5'h1F && v[9:0] == 10'd0;
      m = {v[14:10] != 5'd0, v[9:0]};
      e = (v[14:10] == 5'd0 ? 1 : int'(v[14:10])) - 15 - 10;
    end else begin
      nan = v[14:7] == 8'hFF && v[6:0] != 7'd0;
      inf = v[14:7] == 8'hFF && v[6:0] == 7'd0;
      m = {3'd0, v[14:7] != 8'd0, v[6:0]};
      e = (v[14:7] == 8'd0 ? 1 : int'(v[14:7])) - 127 - 7;
    end
  endfunction

  // A decoded bf16/fp16 operand (decode16): class bits, sign, |value| = m * 2^e.
  typedef struct packed {
    logic        nan;
    logic        inf;
    logic        zero;
    logic        sign;
    logic [10:0] m;
    logic [31:0] e;
  } op16_t;

  function automatic op16_t decode_op16(input logic [15:0] v, input logic fp16);
    op16_t o;
    int e;
    decode16(v[14:0], fp16, o.nan, o.inf, o.zero, o.m, e);
    o.sign = v[15];
    o.e = e;
    return o;
  endfunction

  // fp32 fmaf(a, b, c) for decoded bf16 (fp16 = 0) or fp16 (fp16 = 1) a and
  // b: the product is exact, one rounding at the add. Any NaN result is the
  // canonical quiet NaN 0x7FC00000. The MAC array decodes each operand lane
  // once (decode_op16) and shares it along its row or column.
  function automatic logic [31:0] fma16_dec(input op16_t a, input op16_t b, input logic [31:0] c,
                                            input logic fp16, input logic tie_away);
    logic c_nan, c_inf, sp, sx, sy, swap, lost;
    logic [21:0] pm;
    logic [23:0] m_p, m_c, mx, my;
    int e_p, e_c, ex, ey, d;
    logic [63:0] x_ext, y_full, y_ext, s;
    c_nan = c[30:23] == 8'hFF && c[22:0] != 23'd0;
    c_inf = c[30:23] == 8'hFF && c[22:0] == 23'd0;
    sp = a.sign ^ b.sign;
    if (a.nan || b.nan || c_nan) return QNAN;
    if (a.inf || b.inf) begin
      if (a.zero || b.zero) return QNAN;
      if (c_inf && c[31] != sp) return QNAN;
      return {sp, 8'hFF, 23'd0};
    end
    if (c_inf) return c;
    // Exact product (at most 22 bits), placed at the top of 24 bits.
    pm = {11'd0, a.m} * {11'd0, b.m};
    if (fp16) begin
      m_p = {pm, 2'd0};
      e_p = int'(a.e) + int'(b.e) - 2;
    end else begin
      m_p = {pm[15:0], 8'd0};
      e_p = int'(a.e) + int'(b.e) - 8;
    end
    norm24(m_p, e_p);
    m_c = {c[30:23] != 8'd0, c[22:0]};
    e_c = (c[30:23] == 8'd0 ? 1 : int'(c[30:23])) - 150;
    norm24(m_c, e_c);
    // Order by magnitude: x >= y.
    swap = (e_c > e_p) || (e_c == e_p && m_c > m_p);
    mx = swap ? m_c : m_p;
    ex = swap ? e_c : e_p;
    sx = swap ? c[31] : sp;
    my = swap ? m_p : m_c;
    ey = swap ? e_p : e_c;
    sy = swap ? sp : c[31];
    // Align y below x: 28 guard bits and a jamming (sticky) bit at bit 0.
    d = ex - ey;
    x_ext = {11'd0, mx, 29'd0};
    y_full = {11'd0, my, 29'd0};
    if (d >= 53) begin
      y_ext = {63'd0, my != 24'd0};
    end else begin
      lost = (y_full & ((64'd1 << d) - 64'd1)) != 64'd0;
      y_ext = (y_full >> d) | {63'd0, lost};
    end
    s = (sx == sy) ? x_ext + y_ext : x_ext - y_ext;
    if (s == 64'd0) return {sx & sy, 31'd0};
    return round_pack(sx, s, ex - 29, tie_away);
  endfunction

  // fma16_dec on raw bf16/fp16 bit patterns.
  function automatic logic [31:0] fma16(input logic [15:0] a, input logic [15:0] b,
                                        input logic [31:0] c, input logic fp16, input logic tie_away);
    return fma16_dec(decode_op16(a, fp16), decode_op16(b, fp16), c, fp16, tie_away);
  endfunction

  // ---- The MAC array's fast path: operands decoded once at the array edge,
  // accumulators kept unpacked between multiply-adds. ----
  //
  // Exponents here are unsigned, offset by EXP_K (so that every compare is
  // an unsigned one: Verilator widens signed compares to 64 bits).
  //
  // An unpacked fp32 accumulator: value = (-1)^s * m * 2^(e - EXP_K - 150)
  // with m normalized (m[23] set; e - EXP_K is the biased fp32 exponent,
  // below 1 for subnormals, down to -22), so {e, m} orders magnitudes;
  // a zero is e == 0, m == 0; infinity e == ACC_SPECIAL_E with m == 2^23,
  // NaN the same e with m[22] set.
  //
  // An edge operand (edge_m16, edge_e16): sign, 11-bit significand with its leading
  // one at bit 10 (subnormals pre-normalized; 0 for a zero), the exponent of
  // that leading one with a per-side offset (A: EXP_A_OFF, zero 1; B:
  // EXP_B_OFF, zero 0; NaN/infinity OP_SPECIAL_E) so that a product's
  // exponent is ea + eb (+1 when the significand product carries). A zero
  // operand's product lies above a zero accumulator and below every nonzero
  // value. Finite products and accumulators have exponents below 2^14, so
  // one test of (ea + eb) | e picks the multiply-adds that need the special
  // cases.
  localparam logic [31:0] EXP_K = 32'd8192;
  localparam logic [31:0] EXP_B_OFF = 32'd512;
  localparam logic [31:0] EXP_A_OFF = EXP_K + 32'd127 - EXP_B_OFF;
  localparam logic [31:0] EXP_SPECIAL = EXP_K + 32'd255;  // overflow threshold
  localparam logic [31:0] ACC_SPECIAL_E = 32'h4000 + 32'd255;  // e[7:0] = 8'hFF
  localparam logic [31:0] OP_SPECIAL_E = 32'h8000;

  // Edge decode of a bf16 (fp16 = 0) or fp16 (fp16 = 1) operand for the
  // fast path: its significand (edge_m16) and exponent (edge_e16) on the A
  // side (a_side = 1) or the B side, from bits 14:0 (the sign is bit 15). Two
  // functions rather than a struct: a packed struct is a 64-bit word in the
  // model, and every field write a masked read-modify-write of it.
  function automatic logic [10:0] edge_m16(input logic [14:0] v, input logic fp16);
    logic [10:0] f;
    f = fp16 ? {v[14:10] != 5'd0, v[9:0]} : {v[14:7] != 8'd0, v[6:0], 3'd0};
    // A subnormal (exponent field 0, f[10] clear): leading one up to bit 10.
    if (f != 11'd0 && !f[10]) f = f << (10 - msb_pos24({13'd0, f}));
    return f;
  endfunction

  function automatic logic [31:0] edge_e16(input logic [14:0] v, input logic fp16,
                                           input logic a_side);
    logic [31:0] off;
    logic [10:0] f;
    off = a_side ? EXP_A_OFF : EXP_B_OFF;
    f = fp16 ? {v[14:10] != 5'd0, v[9:0]} : {v[14:7] != 8'd0, v[6:0], 3'd0};
    if (fp16 ? v[14:10] == 5'h1F : v[14:7] == 8'hFF) return OP_SPECIAL_E;
    if (f == 11'd0) return a_side ? 32'd1 : 32'd0;
    // Subnormal, f * 2^-24 (fp16) or f * 2^-136 (bf16).
    if (!f[10]) return off + 32'(msb_pos24({13'd0, f})) - (fp16 ? 32'd24 : 32'd136);
    return off + (fp16 ? 32'(v[14:10]) - 32'd15 : 32'(v[14:7]) - 32'd127);
  endfunction

  // Unpack an fp32 pattern into (s, e, m).
  function automatic void acc_unpack(input logic [31:0] c, output logic s, output logic [31:0] e,
                                     output logic [23:0] m);
    int lead;
    s = c[31];
    m = {1'b1, c[22:0]};
    e = c[30:23] == 8'hFF ? ACC_SPECIAL_E : EXP_K + 32'(c[30:23]);
    if (c[30:23] == 8'd0) begin
      if (c[22:0] == 23'd0) begin
        m = 24'd0;
        e = 32'd0;
      end else begin
        lead = msb_pos24({1'b0, c[22:0]});
        m = {1'b0, c[22:0]} << (23 - lead);
        e = EXP_K + 32'(lead) - 32'd22;
      end
    end
  endfunction

  // Pack an unpacked accumulator back to its fp32 pattern (e[7:0] is the
  // exponent field where e > EXP_K: EXP_K is a multiple of 256).
  /* verilator lint_off UNUSEDSIGNAL */
  function automatic logic [31:0] acc_pack(input logic s, input logic [31:0] e,
                                           input logic [23:0] m);
    if (e <= EXP_K) return {s, 8'd0, 23'(m >> (EXP_K + 32'd1 - e))};  // subnormal or zero
    return {s, e[7:0], m[22:0]};
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  // Position of the leading one of a nonzero 32-bit value.
  function automatic logic [31:0] msb_pos32(input logic [31:0] v);
    logic [31:0] x, p;
    x = v;
    p = 32'd0;
    if (x[31:16] != 16'd0) begin p = 32'd16; x = x >> 16; end
    if (x[15:8] != 8'd0) begin p = p + 32'd8; x = x >> 8; end
    if (x[7:4] != 4'd0) begin p = p + 32'd4; x = x >> 4; end
    if (x[3:2] != 2'd0) begin p = p + 32'd2; x = x >> 2; end
    if (x[1]) p = p + 32'd1;
    return p;
  endfunction

  // acc = fmaf(a, b, acc) for finite edge operands a (A side) and b (B side)
  // and a finite unpacked accumulator (s, e, m): one rounding, nearest-even
  // (ties away from zero when tie_away is set: the injected fault).
  //
  // The product of two 11-bit significands with leading ones at bit 10 is
  // exact in 22 bits with its leading one at bit 20 or 21: one conditional
  // shift puts it at bit 23, as the accumulator's. The larger magnitude x
  // sits at bits 30:7 of a 32-bit window, the smaller y is shifted right by
  // the exponent difference with everything shifted out jammed into bit 0.
  // That window is enough: an add carries at most into bit 31 and a
  // subtract with a shift of 2 or more loses at most one leading bit, so the
  // 24 kept bits end at bit 6 or above and the guard bit and the bits below
  // it (where the jam lives) round as the exact sum would; a subtract with a
  // shift of 0 or 1 loses nothing (7 spare bits) and is exact. Only that
  // case needs the full leading-one search.
  function automatic void mac16(input logic sa, input logic [10:0] ma, input logic [31:0] ea,
                                input logic sb, input logic [10:0] mb, input logic [31:0] eb,
                                inout logic s, inout logic [31:0] e, inout logic [23:0] m,
                                input logic tie_away);
    logic [21:0] pm;
    logic [23:0] mp, mx, my;
    logic sp, swap, sx, sub, g, st, right;
    logic [31:0] ep, ex, d, lead, amt, xw, yf, yw, sum, kept;
    pm = 22'({11'd0, ma} * {11'd0, mb});
    sp = sa ^ sb;
    mp = pm[21] ? {pm, 2'd0} : {pm[20:0], 3'd0};
    ep = ea + eb + 32'(pm[21]);
    swap = (e > ep) || (e == ep && m > mp);
    mx = swap ? m : mp;
    my = swap ? mp : m;
    ex = swap ? e : ep;
    d = swap ? e - ep : ep - e;
    sx = swap ? s : sp;
    sub = s != sp;
    if (d > 32'd31) d = 32'd31;
    xw = {1'b0, mx, 7'd0};
    yf = {1'b0, my, 7'd0};
    yw = yf >> d[4:0];
    st = (yw << d[4:0]) != yf;
    yw = yw | {31'd0, st};
    sum = sub ? xw - yw : xw + yw;
    if (sum == 32'd0) begin
      // Exact zero: +0 unless both addends are -0.
      s = sx & !sub;
      e = 32'd0;
      m = 24'd0;
    end else begin
      s = sx;
      // (Two statements per branch keep Verilator from folding the chain
      // into one expression that would run the search every time.)
      if (sum[31:29] != 3'd0) begin
        lead = sum[31] ? 32'd31 : sum[30] ? 32'd30 : 32'd29;
        right = 1'b1;
      end else begin
        lead = msb_pos32(sum);
        right = 1'b0;
      end
      // e: exponent of the leading one. At or below EXP_K the result is
      // subnormal: its LSB is 2^-149, a right shift of EXP_K + 8 - ex.
      e = ex + lead - 32'd30;
      if (e > EXP_K) begin
        right = lead > 32'd23;
        amt = right ? lead - 32'd23 : 32'd23 - lead;
      end else begin
        right = EXP_K + 32'd8 > ex;
        amt = right ? EXP_K + 32'd8 - ex : ex - EXP_K - 32'd8;
      end
      if (!right) begin
        m = 24'(sum << amt[4:0]);  // exact (cancellation)
      end else if (amt > 32'd32) begin
        m = 24'd0;  // below half of the smallest subnormal
      end else begin
        kept = amt == 32'd32 ? 32'd0 : sum >> amt[4:0];
        g = sum[amt[4:0]-5'd1];
        st = (sum & ((32'd1 << (amt[4:0] - 5'd1)) - 32'd1)) != 32'd0;
        kept = kept + {31'd0, g & (st | kept[0] | tie_away)};
        if (kept[24]) begin
          kept = kept >> 1;
          e = e + 32'd1;
        end
        m = kept[23:0];
      end
      if (e <= EXP_K) begin
        // Subnormal (m < 2^23) or rounded up to 2^-126: normalize.
        if (m == 24'd0) begin
          e = 32'd0;
        end else begin
          lead = msb_pos32({8'd0, m});
          m = m << (5'd23 - lead[4:0]);
          e = EXP_K + lead - 32'd22;
        end
      end else if (e >= EXP_SPECIAL) begin
        e = ACC_SPECIAL_E;
        m = 24'h80_0000;
      end
    end
  endfunction

  // One MAC cell's beat: acc (packed fp32 pattern, or m with s and e when
  // unpacked) = fmaf(a, b, acc). Finite operands and accumulators take
  // mac16 on the edge-decoded operands, the rest fma16 on the raw patterns.
  function automatic void mac_cell(input logic [15:0] a_raw, input logic [10:0] ma,
                                   input logic [31:0] ea, input logic [15:0] b_raw,
                                   input logic [10:0] mb, input logic [31:0] eb, input logic fp16,
                                   inout logic [31:0] acc, inout logic s, inout logic [31:0] e,
                                   input logic tie_away);
    logic [23:0] m;
    m = acc[23:0];
    if (((ea + eb) | e) >= 32'h4000)
      acc_unpack(fma16(a_raw, b_raw, acc_pack(s, e, m), fp16, tie_away), s, e, m);
    else
      mac16(a_raw[15], ma, ea, b_raw[15], mb, eb, s, e, m, tie_away);
    acc = {8'd0, m};
  endfunction

  // Round an fp32 pattern to prec fraction bits (1..22), nearest-even on the
  // encoding; prec 0 or >= 23 keeps all 23. NaN and infinity pass through.
  function automatic logic [31:0] round_prec(input logic [31:0] y, input logic [4:0] prec);
    int s;
    logic [31:0] mag, lsb;
    if (prec == 5'd0 || prec >= 5'd23 || y[30:23] == 8'hFF) return y;
    s = 23 - int'(prec);
    mag = {1'b0, y[30:0]};
    lsb = (mag >> s) & 32'd1;
    mag = mag + ((32'd1 << (s - 1)) - 32'd1) + lsb;
    mag = mag & ~((32'd1 << s) - 32'd1);
    return {y[31], mag[30:0]};
  endfunction

endpackage
