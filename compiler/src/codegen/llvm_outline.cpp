//===- llvm_outline.cpp - the emitter's cold regions outlined into optnone functions ===//
//
// The emitter (llir_cold.cpp) writes a rarely taken path inline, between a
// branch marked !opforge.cold and branches marked !opforge.cold.end, and
// records it as a ColdRegion; here, on LLVM's parsed module and before the
// middle end, LLVM's CodeExtractor moves it into a function of its own. Its
// free values, their types and the allocas only it uses (sunk into the new
// function) are what LLVM's IR says they are: nothing reads the IR text.
//
//===----------------------------------------------------------------------===//
#include "llvm_outline.h"

#include <algorithm>
#include <map>
#include <vector>

#include <llvm/ADT/SetVector.h>
#include <llvm/IR/BasicBlock.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/CodeExtractor.h>

#include "opforge/compiler/llir_ir.h"

namespace opforge::compiler {
namespace {

// The blocks of the region entered at `entry`: those reachable from it
// without leaving through a branch marked `exit_kind`, in layout order
// (`entry` first). Empty when the region reaches the function's entry
// block or the block it is entered from (not a region the emitter wrote).
std::vector<llvm::BasicBlock *> region_blocks(llvm::BasicBlock *from, llvm::BasicBlock *entry,
                                              unsigned exit_kind) {
  llvm::SmallPtrSet<llvm::BasicBlock *, 32> in;
  std::vector<llvm::BasicBlock *> work = {entry};
  in.insert(entry);
  llvm::BasicBlock *fn_entry = &entry->getParent()->getEntryBlock();
  while (!work.empty()) {
    llvm::BasicBlock *b = work.back();
    work.pop_back();
    llvm::Instruction *t = b->getTerminator();
    if (!t) return {};
    if (t->getMetadata(exit_kind)) continue;
    for (llvm::BasicBlock *s : llvm::successors(b)) {
      if (s == fn_entry || s == from) return {};
      if (in.insert(s).second) work.push_back(s);
    }
  }
  std::vector<llvm::BasicBlock *> blocks = {entry};
  for (llvm::BasicBlock &b : *entry->getParent())
    if (&b != entry && in.count(&b)) blocks.push_back(&b);
  return blocks;
}

// `loc` moved to subprogram `sp`: a line of another file keeps its file
// through a lexical block file of `sp` (as the emitter's own locations do).
llvm::DILocation *rescoped(llvm::DILocation *loc, llvm::DISubprogram *sp) {
  llvm::LLVMContext &ctx = sp->getContext();
  llvm::DIScope *scope = sp;
  if (auto *f = llvm::dyn_cast<llvm::DILexicalBlockFile>(loc->getScope()))
    scope = llvm::DILexicalBlockFile::get(ctx, sp, f->getFile(), f->getDiscriminator());
  return llvm::DILocation::get(ctx, loc->getLine(), loc->getColumn(), scope);
}

// `cold` with its parameters in the lexical order of the values' names
// (the order the emitter used when it wrote cold functions itself, e1adba9;
// CodeExtractor's is first use): the one call passes them in that order.
// -O0 code follows the parameter order (which argument register holds
// what), and so does the code laid out after it (the runtime library's
// routines), whose alignment the chip's instruction fetch sees. Returns
// the function in use (a new one when the order changed).
llvm::Function *params_by_name(llvm::Function *cold) {
  const size_t n = cold->arg_size();
  std::vector<unsigned> order(n);
  for (unsigned i = 0; i < n; ++i) order[i] = i;
  auto name = [&](unsigned i) { return cold->getArg(i)->getName(); };
  std::stable_sort(order.begin(), order.end(),
                   [&](unsigned a, unsigned b) { return name(a) < name(b); });
  bool same = true;
  for (unsigned i = 0; i < n; ++i) same &= order[i] == i;
  if (same || !cold->hasOneUse()) return cold;
  auto *call = llvm::dyn_cast<llvm::CallInst>(cold->user_back());
  if (!call || call->getCalledFunction() != cold) return cold;
  std::vector<llvm::Type *> types;
  std::vector<llvm::Value *> args;
  for (unsigned i : order) {
    types.push_back(cold->getArg(i)->getType());
    args.push_back(call->getArgOperand(i));
  }
  auto *type = llvm::FunctionType::get(cold->getReturnType(), types, false);
  llvm::Function *f = llvm::Function::Create(type, cold->getLinkage(), cold->getAddressSpace(), "",
                                             cold->getParent());
  f->removeFromParent();
  cold->getParent()->getFunctionList().insert(cold->getIterator(), f);
  f->setAttributes(llvm::AttributeList::get(cold->getContext(), cold->getAttributes().getFnAttrs(),
                                            cold->getAttributes().getRetAttrs(), {}));
  f->splice(f->end(), cold);
  for (unsigned i = 0; i < n; ++i) {
    llvm::Argument *a = cold->getArg(order[i]);
    f->getArg(i)->takeName(a);
    a->replaceAllUsesWith(f->getArg(i));
  }
  auto *now = llvm::CallInst::Create(type, f, args, "", call);
  now->setDebugLoc(call->getDebugLoc());
  call->eraseFromParent();
  f->takeName(cold);
  cold->eraseFromParent();
  return f;
}

// Branches to a block that only returns return themselves (CodeExtractor
// leaves the region through such an exit stub; at -O0 each is a jump).
void return_directly(llvm::Function &f) {
  std::vector<llvm::BasicBlock *> stubs;
  for (llvm::BasicBlock &b : f)
    if (&b != &f.getEntryBlock() && b.size() == 1 && llvm::isa<llvm::ReturnInst>(b.front()) &&
        !llvm::cast<llvm::ReturnInst>(b.front()).getReturnValue())
      stubs.push_back(&b);
  for (llvm::BasicBlock *stub : stubs) {
    bool all_plain = true;
    for (llvm::BasicBlock *p : llvm::predecessors(stub)) {
      auto *br = llvm::dyn_cast<llvm::BranchInst>(p->getTerminator());
      all_plain &= br && br->isUnconditional();
    }
    if (!all_plain) continue;
    std::vector<llvm::BasicBlock *> preds(llvm::pred_begin(stub), llvm::pred_end(stub));
    for (llvm::BasicBlock *p : preds) {
      llvm::Instruction *br = p->getTerminator();
      auto *ret = llvm::ReturnInst::Create(f.getContext(), nullptr, br);
      ret->setDebugLoc(stub->front().getDebugLoc());
      br->eraseFromParent();
    }
    stub->eraseFromParent();
  }
}

void outline(llvm::Function &fn, llvm::BranchInst *into, unsigned entry_kind, unsigned exit_kind) {
  llvm::LLVMContext &ctx = fn.getContext();
  auto *md = into->getMetadata(entry_kind);
  into->setMetadata(entry_kind, nullptr);
  auto *name = md && md->getNumOperands() == 1
                   ? llvm::dyn_cast<llvm::MDString>(md->getOperand(0).get())
                   : nullptr;
  if (!name || into->getNumSuccessors() != 1) return;
  std::vector<llvm::BasicBlock *> blocks =
      region_blocks(into->getParent(), into->getSuccessor(0), exit_kind);
  if (blocks.empty()) return;
  // The region's source locations, to move to the new function's subprogram.
  std::map<llvm::Instruction *, llvm::DILocation *> locs;
  for (llvm::BasicBlock *b : blocks)
    for (llvm::Instruction &i : *b) {
      if (llvm::DILocation *l = i.getDebugLoc().get()) locs[&i] = l;
      if (i.isTerminator()) i.setMetadata(exit_kind, nullptr);
    }
  // The kernel's allocas only the region uses go with it (CodeExtractor
  // sinks only allocas with lifetime markers): into the region's entry
  // block for the extraction, then into the new function's entry block.
  llvm::SmallPtrSet<llvm::BasicBlock *, 32> in(blocks.begin(), blocks.end());
  std::vector<llvm::AllocaInst *> sunk;
  for (llvm::Instruction &i : fn.getEntryBlock())
    if (auto *a = llvm::dyn_cast<llvm::AllocaInst>(&i)) {
      bool only_region = !a->use_empty();
      for (llvm::User *u : a->users()) {
        auto *ui = llvm::dyn_cast<llvm::Instruction>(u);
        only_region &= ui && in.count(ui->getParent());
      }
      if (only_region) sunk.push_back(a);
    }
  llvm::BasicBlock *entry = blocks.front();
  for (auto it = sunk.rbegin(); it != sunk.rend(); ++it)
    (*it)->moveBefore(*entry, entry->getFirstInsertionPt());
  llvm::CodeExtractorAnalysisCache cache(fn);
  llvm::CodeExtractor extractor(blocks, /*DT=*/nullptr, /*AggregateArgs=*/false, nullptr, nullptr,
                                nullptr, /*AllowVarArgs=*/false, /*AllowAlloca=*/true,
                                /*AllocationBlock=*/nullptr, "cold");
  llvm::Function *cold = extractor.isEligible() ? extractor.extractCodeRegion(cache) : nullptr;
  if (!cold) {  // it stays inline: its allocas back where they were
    for (llvm::AllocaInst *a : sunk) a->moveBefore(fn.getEntryBlock().getTerminator());
    return;
  }
  cold = params_by_name(cold);
  return_directly(*cold);
  llvm::BasicBlock &root = cold->getEntryBlock();
  for (auto it = sunk.rbegin(); it != sunk.rend(); ++it)
    (*it)->moveBefore(root, root.getFirstInsertionPt());
  cold->setName(name->getString());
  cold->setLinkage(llvm::GlobalValue::InternalLinkage);
  cold->addFnAttr(llvm::Attribute::NoInline);
  cold->addFnAttr(llvm::Attribute::OptimizeNone);
  llvm::DISubprogram *sp = fn.getSubprogram();
  if (!sp) return;
  // A subprogram like _start's, named after the function; CodeExtractor's
  // own (line 0, lines of other files folded into the kernel's) is dropped.
  auto *cold_sp = llvm::DISubprogram::getDistinct(ctx, sp->getScope(), cold->getName(),
                                                  cold->getName(), sp->getFile(), sp->getLine(),
                                                  sp->getType(), sp->getScopeLine(), nullptr, 0, 0,
                                                  sp->getFlags(), sp->getSPFlags(), sp->getUnit());
  cold->setSubprogram(cold_sp);
  const llvm::DebugLoc call_loc = into->getDebugLoc();
  for (llvm::BasicBlock &b : *cold)
    for (llvm::Instruction &i : b) {
      auto it = locs.find(&i);
      llvm::DILocation *l = it != locs.end() ? it->second : i.getDebugLoc().get();
      if (l) i.setDebugLoc(rescoped(l, cold_sp));
    }
  for (llvm::User *u : cold->users())
    if (auto *call = llvm::dyn_cast<llvm::CallInst>(u)) call->setDebugLoc(call_loc);
}

}  // namespace

void outline_cold_regions(llvm::Module &mod) {
  llvm::Function *fn = mod.getFunction("_start");
  if (!fn) return;
  llvm::LLVMContext &ctx = mod.getContext();
  const unsigned entry_kind = ctx.getMDKindID(llir::kColdEntryMd);
  const unsigned exit_kind = ctx.getMDKindID(llir::kColdExitMd);
  std::vector<llvm::BranchInst *> entries;
  for (llvm::BasicBlock &b : *fn)
    if (auto *br = llvm::dyn_cast_or_null<llvm::BranchInst>(b.getTerminator()))
      if (br->getMetadata(entry_kind)) entries.push_back(br);
  for (llvm::BranchInst *into : entries) outline(*fn, into, entry_kind, exit_kind);
}

}  // namespace opforge::compiler
