//===- inductor_coverage_corpus.h - one small corpus for the view/pool/linalg/search/special family
//tests ===//
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

}  // namespace opforge::test::inductor
