//===- counters_h5.cpp - HDF5 writer for counters, series, launch ---------===//
#include "opforge/model/counters_h5.h"

#include <H5Cpp.h>

#include "opforge/model/chip.h"
#include "opforge/model/device.h"
#include "opforge/support/error.h"

namespace opforge::model {
namespace {

void write_strings(H5::Group &g, const std::string &name, const std::vector<std::string> &v) {
  H5::StrType st(H5::PredType::C_S1, H5T_VARIABLE);
  st.setCset(H5T_CSET_UTF8);
  hsize_t dims[1] = {v.size()};
  H5::DataSpace sp(1, dims);
  H5::DataSet ds = g.createDataSet(name, st, sp);
  std::vector<const char *> ptrs;
  for (const auto &s : v) ptrs.push_back(s.c_str());
  if (!v.empty()) ds.write(ptrs.data(), st);
}

void write_u64(H5::Group &g, const std::string &name, const std::vector<uint64_t> &v,
               std::vector<hsize_t> dims) {
  H5::DataSpace sp(int(dims.size()), dims.data());
  H5::DataSet ds = g.createDataSet(name, H5::PredType::STD_U64LE, sp);
  if (!v.empty()) ds.write(v.data(), H5::PredType::NATIVE_UINT64);
}

void attr_str(H5::H5Object &o, const std::string &name, const std::string &value) {
  H5::StrType st(H5::PredType::C_S1, value.size() ? value.size() : 1);
  H5::DataSpace sp(H5S_SCALAR);
  o.createAttribute(name, st, sp).write(st, value.empty() ? std::string(" ") : value);
}

void attr_u64(H5::H5Object &o, const std::string &name, uint64_t value) {
  H5::DataSpace sp(H5S_SCALAR);
  o.createAttribute(name, H5::PredType::STD_U64LE, sp).write(H5::PredType::NATIVE_UINT64, &value);
}

}  // namespace

void write_counters_h5_file(const std::string &path, const CounterSnapshot &snapshot,
                            const CounterSeries &series, const std::string &config_json,
                            const LaunchResult *last) {
  try {
    H5::Exception::dontPrint();
    H5::H5File f(path, H5F_ACC_TRUNC);
    H5::Group root = f.openGroup("/");
    attr_str(root, "config", config_json);
    attr_str(root, "schema", "opforge.model.counters/1");

    H5::Group c = f.createGroup("/counters");
    std::vector<std::string> names;
    std::vector<uint64_t> values;
    for (const auto &[n, v] : snapshot) {
      names.push_back(n);
      values.push_back(v);
    }
    write_strings(c, "names", names);
    write_u64(c, "values", values, {values.size()});

    H5::Group s = f.createGroup("/series");
    write_strings(s, "names", series.names);
    write_u64(s, "cycles", series.cycles, {series.cycles.size()});
    std::vector<uint64_t> flat;
    for (const auto &row : series.values) flat.insert(flat.end(), row.begin(), row.end());
    write_u64(s, "values", flat, {series.values.size(), series.names.size()});

    if (last) {
      H5::Group l = f.createGroup("/launch");
      attr_u64(l, "cycles", last->cycles);
      attr_u64(l, "start_cycle", last->start_cycle);
      attr_u64(l, "end_cycle", last->end_cycle);
      attr_u64(l, "instructions", last->instructions);
      std::vector<std::string> dn;
      std::vector<uint64_t> dv;
      for (const auto &[n, v] : last->counter_deltas) {
        dn.push_back(n);
        dv.push_back(v);
      }
      write_strings(l, "delta_names", dn);
      write_u64(l, "delta_values", dv, {dv.size()});
      // Per instance: pid x/y/z, pe, start, end, instructions, status code.
      std::vector<uint64_t> inst;
      std::vector<std::string> msgs;
      for (const auto &r : last->instances) {
        inst.insert(inst.end(), {r.pid[0], r.pid[1], r.pid[2], r.pe, r.start_cycle, r.end_cycle,
                                 r.instructions, uint64_t(r.status)});
        msgs.push_back(r.message);
      }
      write_u64(l, "instances", inst, {last->instances.size(), 8});
      write_strings(l, "instance_messages", msgs);
    }
  } catch (const H5::Exception &e) {
    throw Error("cannot write HDF5 counters: " + e.getDetailMsg(),
                ErrorContext{path, "", {}, {}, {}});
  }
}

}  // namespace opforge::model
