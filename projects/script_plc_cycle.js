// PLC-style cycle of two cylinders, one scan per sample (Ts = 5 ms):
//   0  idle: wait for the start switch with A and B retracted (a0, b0)
//   1  A+  (Y1 = 1) until a1
//   2  B+  (Y2 = 1) until b1
//   3  dwell: hold both out for 0.3 s (a timer on the scan time t)
//   4  A-  (Y1 = 0) until a0
//   5  B-  (Y2 = 0) until b0, count the cycle, back to 0
// While the start switch stays on, the cycle repeats.
const dwell = 0.3;
var state = 0, tEnter = 0, Y1 = 0, Y2 = 0, cycles = 0;

function init() {
  state = 0; tEnter = 0; Y1 = 0; Y2 = 0; cycles = 0;
}

function on(x) { return x > 0.5; }

function enter(s, t) { state = s; tEnter = t; }

function step(t, s) {
  switch (state) {
    case 0: if (on(s.start) && on(s.a0) && on(s.b0)) { Y1 = 1; enter(1, t); } break;
    case 1: if (on(s.a1)) { Y2 = 1; enter(2, t); } break;
    case 2: if (on(s.b1)) enter(3, t); break;
    case 3: if (t - tEnter >= dwell - 1e-9) { Y1 = 0; enter(4, t); } break;
    case 4: if (on(s.a0)) { Y2 = 0; enter(5, t); } break;
    case 5: if (on(s.b0)) { cycles++; enter(0, t); } break;
    default: throw new Error("unknown state " + state);
  }
  return { Y1: Y1, Y2: Y2, state: state, cycles: cycles };
}
