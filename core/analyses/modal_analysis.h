// Modal analysis of the whole coupled machine (issue #22, seed 004): the
// project's DAE F(t, y, y') = 0 linearised at an operating point,
//   A dy + B dy' = 0,  A = dF/dy, B = dF/dy',
// and the pencil's finite eigenvalues lambda (dy = v e^(lambda t)). The
// system is everything the transient run integrates: the mechanism (parts,
// the node bodies of flexible beams, constraint multipliers), the chambers'
// pressures and temperatures, the actuators' and controllers' states. So a
// closed chamber's air spring, a beam's bending and the coupling between
// them come out of one eigenproblem. Discrete states (valve positions,
// switches) are held as they are at the operating point.
//
// The operating point is the state a transient run of the same project
// reaches at time T (T = 0: the consistent start), or the static
// equilibrium (ModalOptions::staticEquilibrium). The eigenproblem is
// solved by shift-and-invert, (A + s B)^-1 B v = -1/(lambda - s) v, on the
// states scaled by their magnitude; the pencil's infinite eigenvalues (the
// algebraic equations, the constraints) are the zero ones of that matrix.
#pragma once

#include "model/project.h"
#include "solver/channel_info.h"

#include <atomic>
#include <complex>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace pm {

struct BuildOptions;

// Dense: every mode, at a cost ~ (states)^3. Sparse: the lowest modes by a
// shift-invert Arnoldi iteration on the sparse linearisation
// (analyses/modal_pencil.h). Auto: dense up to 400 states.
enum class ModalSolver { Auto, Dense, Sparse };

// The analysis's stages in their order (ModalOptions::onStage).
enum class ModalStage { Run, StaticEquilibrium, Linearise, Eigensolve, Modes };

struct ModalOptions {
  double at = 0.0;  // the operating point: the run's state at this time [s]
  // The operating point is instead the static equilibrium F(t, y, 0) = 0
  // (gravity, supply pressures, springs; the inputs and the discrete states
  // as at `at`), found by Newton from the run's state at `at`. An
  // equilibrium that is not unique (a free part, a closed chamber's gas)
  // is taken nearest that state.
  bool staticEquilibrium = false;
  // Modes whose |lambda| is above this are not reported [rad/s] (0: all finite ones).
  double maxOmega = 0.0;
  // Report the lowest this many modes (a complex pair counts once); 0: all
  // (dense), or those below maxOmega, else 30 (sparse).
  int modes = 0;
  ModalSolver solver = ModalSolver::Auto;
  // Report the oscillating modes alone (no zero or real ones). The sparse
  // solver then looks for them alone, by windows on the imaginary axis
  // (analyses/modal_oscillating.h: damping ratio up to 0.6, from 0.11 Hz),
  // never computing the real roots in between; the dense one leaves the
  // others out of its every mode.
  bool oscillatingOnly = false;
  // Set from another thread to give up (the studio's Cancel): the analysis
  // throws ModalCancelled at its next look, and returns no result. It looks
  // at every step of the run to the operating point, every differenced
  // column, every product of the sparse (Arnoldi) eigensolver and every
  // mode; the steps it cannot look inside (dense LU, QR and eigensolution,
  // the Arnoldi iteration's Ritz problems: Eigen's, n^3) run on a thread it
  // leaves behind when cancelled (analyses/abandonable.h), so it returns
  // within milliseconds wherever it is.
  const std::atomic<bool>* cancel = nullptr;
  // Told, on the analysis's thread, as each stage begins (the studio shows it).
  std::function<void(ModalStage)> onStage;
};

struct ModalCancelled : std::runtime_error {
  ModalCancelled() : std::runtime_error("the modal analysis was cancelled") {}
};

struct ModeShare {
  std::string object;  // a part, flexible body, joint, component or pneumatic net
  double share = 0.0;  // of the mode's scaled state amplitude (sums to 1)
};

struct ChannelAmplitude {
  std::string channel;
  std::string unit;
  double amplitude = 0.0;  // with the mode normalised (see Mode::shape)
  double phase = 0.0;      // [rad] against the mode's largest scaled state
};

struct Mode {
  std::complex<double> lambda;  // [1/s]
  double frequency = 0.0;       // damped: Im(lambda) / 2 pi [Hz]; 0 for a real mode
  double naturalFrequency = 0.0;  // |lambda| / 2 pi [Hz]
  double dampingRatio = 1.0;    // -Re(lambda) / |lambda| (1 for a decaying real mode)
  bool oscillating = false;
  // A zero mode: lambda = 0 to the linearisation's accuracy, a rigid-body
  // motion or an integrator (analyses/zero_modes.h). Its lambda is 0 and
  // its shape the null direction, however rounding split the eigenvalues.
  bool zero = false;
  std::vector<ModeShare> shares;  // largest first, those above 1 %
  // The mode's state vector, scaled so that its largest scaled state is 1
  // at phase 0 (states in the order of ModalResult::states).
  std::vector<std::complex<double>> shape;
  // The channels' amplitudes in this mode (oscillating modes only; those
  // that move), from the outputs linearised along the shape.
  std::vector<ChannelAmplitude> channels;
};

struct ModalResult {
  double t = 0.0;                   // the operating point's time
  bool staticEquilibrium = false;   // the operating point is the static equilibrium
  std::vector<double> y;            // the operating point's state (order of `states`)
  std::vector<std::string> states;  // names, as `pneumech equations` lists them
  std::vector<std::string> stateUnits;
  // The result channels at the operating point (a run's columns, in order),
  // about which the modes' channel amplitudes oscillate (mode_animation.h).
  std::vector<ChannelInfo> channels;
  std::vector<double> outputs;
  std::string solver = "dense";     // "dense" or "sparse" (ModalSolver)
  int infinite = 0;                 // eigenvalues of the algebraic part, not modes (-1: not counted, sparse)
  int aboveLimit = 0;               // finite modes above ModalOptions::maxOmega
  double shift = 0.0;               // s of the shift-and-invert [rad/s]
  int krylovDimension = 0;          // sparse: the Arnoldi space's; dense: the state count
  int factorisations = 0;           // LU factorisations of A + s B
  int applications = 0;             // sparse: products (A + s B)^-1 B x
  int zeroModes = 0;                // modes with Mode::zero (first in `modes`)
  std::vector<Mode> modes;          // the zero modes, then by |lambda|, each complex pair once (Im > 0)
  std::vector<std::string> notes;

  // One row per mode: number, frequency, natural frequency, damping ratio,
  // Re and Im of lambda, kind, the objects with their shares.
  std::string tableCsv() const;
  // Everything, with the oscillating modes' channel shapes.
  std::string json() const;
  // A readable summary (the CLI without -o).
  std::string text(int maxModes = 30) const;
};

// Throws ProjectError on bad input (also a negative `at`), std::runtime_error
// when the run to the operating point fails or the linearisation is singular.
ModalResult runModalAnalysis(const Project& project, const std::string& file, const ModalOptions& options);
ModalResult runModalAnalysis(const Project& project, const std::string& file, const ModalOptions& options,
                             const BuildOptions& build);

}  // namespace pm
