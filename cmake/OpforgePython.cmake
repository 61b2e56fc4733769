# OpforgePython.cmake - the project virtual environment (.venv, made by
# scripts/install-deps.sh from requirements.txt) is the one Python of opforge:
# torch 2.x (corpus export, the libtorch the oracle plugin links), triton (the
# interpreter reference), numpy, h5py, matplotlib. Everything that runs Python
# (tests, `opforge plot`, the corpus and trace scripts) uses OPFORGE_PYTHON.
set(OPFORGE_VENV "${PROJECT_SOURCE_DIR}/.venv" CACHE PATH
  "the project virtual environment (scripts/install-deps.sh creates it)")
set(OPFORGE_PYTHON "${OPFORGE_VENV}/bin/python")
set(OPFORGE_VENV_HINT "run 'bash scripts/install-deps.sh' (or 'make deps') to create it")
if(NOT EXISTS "${OPFORGE_PYTHON}")
  message(WARNING "opforge: no project venv at ${OPFORGE_VENV}; ${OPFORGE_VENV_HINT}. "
    "The oracle plugin and the Python-based tests are not built.")
endif()

# The pinned torch version (requirements.txt): the corpus reader rejects a
# corpus exported with another torch.
file(STRINGS "${PROJECT_SOURCE_DIR}/requirements.txt" _opforge_torch_pin REGEX "^torch==")
string(REGEX REPLACE "^torch==([^ #]+).*" "\\1" OPFORGE_TORCH_VERSION "${_opforge_torch_pin}")
if(NOT OPFORGE_TORCH_VERSION)
  message(FATAL_ERROR "requirements.txt: no 'torch==VERSION' line")
endif()

# The wheel's torch package directory (include/ and lib/ of libtorch).
file(GLOB _opforge_torch_dirs "${OPFORGE_VENV}/lib/python3*/site-packages/torch")
set(OPFORGE_TORCH_DIR "")
if(_opforge_torch_dirs)
  list(GET _opforge_torch_dirs 0 OPFORGE_TORCH_DIR)
endif()
