(* Loaded by coqidetop's `-l` before a channel's first sentence (main/provers/coq/arbor-plugin.ts): never part of a document. *)
Declare ML Module "arbor_plugin:coq-arbor.plugin".
