//===- catalog.cpp - category rule table for ATen overloads ----------------===//
#include "opforge/harness/catalog.h"

#include <algorithm>

namespace opforge::harness {

namespace {

struct Rule {
  Category category;
  std::vector<std::string_view> exact;
  std::vector<std::string_view> prefixes;
  std::vector<std::string_view> suffixes;
};

// The rule table, tried in order; the first rule that matches decides.
const std::vector<Rule> &rules() {
  static const std::vector<Rule> table = {
      {Category::ShapeView,
       {"view", "_unsafe_view", "_reshape_alias", "reshape", "expand", "expand_as", "as_strided", "alias",
        "squeeze", "unsqueeze", "transpose", "permute", "t", "slice", "select", "detach", "lift_fresh",
        "lift_fresh_copy", "clone", "contiguous", "flatten", "unflatten", "split", "split_with_sizes",
        "unsafe_split", "unsafe_split_with_sizes", "chunk", "unsafe_chunk", "unbind", "narrow", "diagonal",
        "movedim", "view_as_real", "view_as_complex", "_conj", "_neg_view", "cat", "stack", "hstack",
        "vstack", "dstack", "repeat", "tile", "flip", "roll", "rot90", "constant_pad_nd", "reflection_pad1d",
        "reflection_pad2d", "reflection_pad3d", "replication_pad1d", "replication_pad2d", "replication_pad3d",
        "unfold", "tensor_split", "diag_embed", "diag", "block_diag", "_to_copy", "copy", "resize",
        "resize_as", "set", "_unsafe_view", "pixel_shuffle", "pixel_unshuffle", "channel_shuffle",
        "diagonal_scatter", "select_scatter", "slice_scatter", "as_strided_scatter", "col2im", "im2col",
        "view_copy", "expand_copy", "permute_copy", "transpose_copy", "squeeze_copy", "unsqueeze_copy",
        "select_copy", "slice_copy", "t_copy", "alias_copy", "detach_copy", "diagonal_copy",
        "as_strided_copy", "unbind_copy", "split_copy", "split_with_sizes_copy"},
       {"_reshape"},
       {}},
      {Category::NormalizationDL,
       {"_softmax", "_log_softmax", "softmax", "log_softmax", "native_layer_norm", "native_batch_norm",
        "_native_batch_norm_legit", "native_group_norm", "batch_norm", "group_norm", "instance_norm",
        "layer_norm", "convolution", "_convolution", "embedding", "embedding_bag", "_embedding_bag",
        "linear", "bilinear", "_cdist_forward", "cdist", "pdist", "_pdist_forward", "cosine_similarity",
        "grid_sampler_2d", "grid_sampler_3d", "affine_grid_generator", "ctc_loss", "_ctc_loss", "glu",
        "prelu", "_prelu_kernel", "rrelu", "local_response_norm", "_weight_norm", "nll_loss_forward",
        "nll_loss2d_forward", "nll_loss_nd", "binary_cross_entropy", "binary_cross_entropy_with_logits",
        "_adaptive_avg_pool2d", "_adaptive_avg_pool3d", "pairwise_distance", "one_hot"},
       {"conv", "max_pool", "avg_pool", "adaptive_", "fractional_max_pool", "upsample_", "_upsample_",
        "nll_loss", "cross_entropy", "max_unpool", "lp_pool", "_native_batch_norm", "native_batch_norm",
        "batch_norm_"},
       {"_loss"}},
      {Category::LinearAlgebra,
       {"mm", "bmm", "addmm", "addmv", "mv", "matmul", "dot", "vdot", "inner", "outer", "ger", "baddbmm",
        "addbmm", "addr", "cholesky", "cholesky_solve", "cholesky_inverse", "triangular_solve", "lu_solve",
        "lu_unpack", "qr", "svd", "eig", "symeig", "inverse", "det", "logdet", "slogdet", "trace", "kron",
        "tensordot", "einsum", "cross", "tril", "triu", "ormqr", "geqrf", "orgqr", "pinverse", "matrix_exp",
        "matrix_power", "chain_matmul", "_lu_with_info", "lu", "frobenius_norm", "nuclear_norm",
        "_addmm_activation", "tril_indices", "triu_indices", "_linalg_check_errors"},
       {"linalg_", "_linalg_", "cholesky_", "_cholesky"},
       {}},
      {Category::Indexing,
       {"index", "index_put", "_index_put_impl", "index_select", "gather", "scatter", "scatter_add",
        "scatter_reduce", "index_add", "index_copy", "index_fill", "index_reduce", "masked_select",
        "masked_scatter", "take", "take_along_dim", "nonzero", "argwhere", "put", "searchsorted",
        "bucketize", "unique", "_unique", "_unique2", "unique_dim", "unique_consecutive", "masked_fill",
        "_embedding_bag_forward_only", "histc", "bincount", "histogram", "_histogramdd_from_bin_cts",
        "_histogramdd_bin_edges", "_histogramdd_from_bin_tensors", "combinations", "cartesian_prod",
        "meshgrid"},
       {"index_", "scatter_"},
       {}},
      {Category::Reduction,
       {"sum", "mean", "prod", "amax", "amin", "max", "min", "argmax", "argmin", "std", "var", "var_mean",
        "std_mean", "norm", "logsumexp", "cumsum", "cumprod", "all", "any", "count_nonzero", "nansum",
        "nanmean", "median", "nanmedian", "mode", "kthvalue", "topk", "sort", "argsort", "aminmax",
        "_aminmax", "logcumsumexp", "cummax", "cummin", "_cummax_helper", "_cummin_helper", "msort",
        "renorm", "dist", "quantile", "nanquantile", "trapz", "trapezoid", "cumulative_trapezoid", "diff",
        "_logcumsumexp", "equal", "allclose", "is_nonzero", "_local_scalar_dense", "item", "cov",
        "corrcoef"},
       {},
       {}},
      {Category::Pointwise,
       {"abs", "absolute", "neg", "negative", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p",
        "sqrt", "rsqrt", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh",
        "acosh", "atanh", "arcsin", "arccos", "arctan", "sigmoid", "logit", "erf", "erfc", "erfinv",
        "lgamma", "digamma", "polygamma", "mvlgamma", "i0", "sinc", "add", "sub", "rsub", "mul", "div",
        "true_divide", "floor_divide", "remainder", "fmod", "pow", "float_power", "atan2", "arctan2",
        "hypot", "xlogy", "heaviside", "nextafter", "copysign", "ldexp", "lerp", "addcmul", "addcdiv",
        "where", "clamp", "clamp_min", "clamp_max", "clip", "relu", "relu6", "gelu", "silu", "mish", "elu",
        "selu", "celu", "leaky_relu", "hardtanh", "hardsigmoid", "hardswish", "hardshrink", "softshrink",
        "softplus", "threshold", "tanhshrink", "logsigmoid", "log_sigmoid_forward", "sign", "sgn",
        "signbit", "floor", "ceil", "round", "trunc", "frac", "fix", "reciprocal", "square", "nan_to_num",
        "isnan", "isinf", "isfinite", "isposinf", "isneginf", "isreal", "eq", "ne", "lt", "le", "gt", "ge",
        "maximum", "minimum", "fmax", "fmin", "logical_and", "logical_or", "logical_xor", "logical_not",
        "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not", "bitwise_left_shift",
        "bitwise_right_shift", "__and__", "__or__", "__xor__", "__lshift__", "__rshift__", "__iand__",
        "__ior__", "__ixor__", "__ilshift__", "__irshift__", "conj_physical", "real", "imag", "angle",
        "deg2rad", "rad2deg", "logaddexp", "logaddexp2", "gcd", "lcm", "positive", "isclose", "frexp",
        "_log_softmax_backward_data", "igamma", "igammac", "xlog1py", "zeta", "_foreach_add",
        "fill", "zero", "masked_fill"},
       {"special_", "_foreach_"},
       {}},
  };
  return table;
}

bool matches(const Rule &r, std::string_view base) {
  if (std::find(r.exact.begin(), r.exact.end(), base) != r.exact.end()) return true;
  for (auto p : r.prefixes)
    if (base.starts_with(p)) return true;
  for (auto s : r.suffixes)
    if (base.ends_with(s)) return true;
  return false;
}

}  // namespace

std::string_view category_name(Category c) {
  switch (c) {
  case Category::Pointwise: return "pointwise";
  case Category::Reduction: return "reduction";
  case Category::Indexing: return "indexing";
  case Category::ShapeView: return "shape/view";
  case Category::LinearAlgebra: return "linear algebra";
  case Category::NormalizationDL: return "normalization/DL";
  case Category::Other: return "other";
  }
  return "other";
}

std::optional<Category> parse_category(std::string_view name) {
  for (Category c : kAllCategories)
    if (category_name(c) == name) return c;
  if (name == "shape" || name == "view" || name == "shape_view") return Category::ShapeView;
  if (name == "linalg" || name == "linear_algebra" || name == "linear-algebra") return Category::LinearAlgebra;
  if (name == "norm" || name == "normalization" || name == "dl" || name == "nn") return Category::NormalizationDL;
  return std::nullopt;
}

std::string overload_base_name(std::string_view overload) {
  std::string_view s = overload;
  if (s.starts_with("aten::")) s.remove_prefix(6);
  s = s.substr(0, s.find('.'));
  std::string base(s);
  // In-place forms ("add_") share their functional form's category; dunder names stay.
  if (base.size() > 1 && base.back() == '_' && !base.ends_with("__")) base.pop_back();
  return base;
}

Category categorize(std::string_view overload) {
  const std::string base = overload_base_name(overload);
  for (const auto &r : rules())
    if (matches(r, base)) return r.category;
  return Category::Other;
}

std::vector<CatalogEntry> catalog(const Corpus &corpus, std::optional<Category> category,
                                  std::optional<opforge::DType> dtype) {
  std::vector<CatalogEntry> out;
  for (const auto &o : corpus.overloads()) {
    CatalogEntry e{o.name, o.schema, categorize(o.name), {}, o.total_calls()};
    for (DType dt : corpus.dtypes())  // in the corpus's dtype order
      if (auto it = o.calls_per_dtype.find(dt); it != o.calls_per_dtype.end() && it->second > 0)
        e.dtypes.push_back(dt);
    if (category && e.category != *category) continue;
    if (dtype) {
      auto it = o.calls_per_dtype.find(*dtype);
      if (it == o.calls_per_dtype.end() || it->second == 0) continue;
      e.calls = it->second;
    }
    out.push_back(std::move(e));
  }
  std::sort(out.begin(), out.end(), [](const auto &a, const auto &b) { return a.overload < b.overload; });
  return out;
}

}  // namespace opforge::harness
