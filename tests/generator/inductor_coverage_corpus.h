//===- inductor_coverage_corpus.h - one small corpus for the view/pool/linalg/search/special family
// tests ===//
#pragma once

#include <string>

#include "corpus_fixture.h"

namespace opforge::test::inductor {

// The shared small corpus has none of these ops: export them once (float32 and int64, at most 6
// samples per OpInfo) with the real exporter into the build tree, shared by every test process.
inline const std::string &coverage_corpus() {
  static const std::string path = test::exported_corpus(
      "coverage",
      {"--ops",
       "t,permute,expand,unsqueeze,as_strided,nn.functional.adaptive_avg_pool2d,"
       "nn.functional.interpolate.bilinear,nn.functional.interpolate.nearest,nn.functional.unfold,"
       "cdist,linalg.cross,trace,tril_indices,searchsorted,bucketize,histc,isin,logspace,renorm,"
       "masked_scatter,special.bessel_j0,special.i0e,special.chebyshev_polynomial_t,"
       "special.hermite_polynomial_h,special.modified_bessel_k1,nn.functional.multilabel_soft_"
       "margin_loss,"
       "nn.functional.multi_margin_loss,nn.functional.multilabel_margin_loss",
       "--dtypes", "float32,int64", "--max-samples", "6"});
  return path;
}

// The OpInfos whose calls reach the rows added for issue 25 item 5 (in-place/out variants,
// *_copy views, softmax/batch-norm internals, erfcx, ...): float32, bfloat16 and int64, at most
// 10 samples per OpInfo.
inline const std::string &rows_corpus() {
  static const std::string path = test::exported_corpus(
      "item5_rows",
      {"--ops",
       "alias_copy,as_strided_copy,expand_copy,permute_copy,squeeze_copy,t_copy,transpose_copy,"
       "unsqueeze_copy,view_copy,squeeze.multiple,diagonal_copy,unfold_copy,unbind_copy,"
       "split_with_sizes_copy,unsafe_split,nn.functional.channel_shuffle,copysign,take_along_dim,"
       "ldexp,fill,nn.functional.rms_norm,nn.functional.cosine_similarity,"
       "nn.functional.linear_cross_entropy.chunked,nn.functional.prelu,"
       "torch.ops.aten._safe_softmax.default,_softmax_backward_data,_native_batch_norm_legit,"
       "_batch_norm_with_update,special.erfcx,special.log_ndtr,all,any,index_fill,"
       "nn.functional.interpolate.nearest-exact,_chunk_cat,_unsafe_masked_index,"
       "_unsafe_masked_index_put_accumulate,nonzero_static,igamma,igammac,"
       "torch.ops.aten._scaled_dot_product_flash_attention_for_cpu,_upsample_bilinear2d_aa,"
       "grid_sampler_2d,nn.functional.grid_sample",
       "--dtypes", "float32,bfloat16,int64", "--max-samples", "10"});
  return path;
}

// The calls that only later samples make (mul.out and neg_ of the chunked cross entropy,
// searchsorted with a scalar, 3-d nearest-exact, 3-d grid sampling): float32, every sample.
inline const std::string &rows_deep_corpus() {
  static const std::string path = test::exported_corpus(
      "item5_rows_deep", {"--ops",
                          "nn.functional.linear_cross_entropy.chunked,searchsorted,"
                          "nn.functional.interpolate.nearest-exact,nn.functional.grid_sample",
                          "--dtypes", "float32", "--max-samples", "260"});
  return path;
}

}  // namespace opforge::test::inductor
