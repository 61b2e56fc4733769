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
