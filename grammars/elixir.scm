; Elixir definitions for the speky scanner (captures: see README.md). Everything is a call:
; definitions are calls of def, defmodule... with a name as first argument.
; When several patterns capture the same node, the first one in this file wins.

; @moduledoc "..." documents its module; @doc "..." (a comment for the scanner) and the
; attributes usually written between it and a def (@spec, @impl, @tag...) are skipped
; like comments and decorators on the way to the definition.
(unary_operator operator: "@" operand: (call target: (identifier) @_attr (arguments . [(string) (sigil)] @docstring))
 (#any-of? @_attr "moduledoc" "typedoc" "shortdoc"))
((unary_operator operator: "@" operand: (call target: (identifier) @_attr (arguments . [(string) (sigil)]))) @comment
 (#eq? @_attr "doc"))
((unary_operator operator: "@" operand: (call target: (identifier) @_attr)) @decoration
 (#any-of? @_attr "doc" "spec" "impl" "tag" "describetag" "deprecated" "since" "dialyzer" "decorate" "requirement"))

; ExUnit: describe "title" do ... end nests; test "title" do ... end is a test (and
; StreamData's property); doctest Module runs a module's doctests.
((call target: (identifier) @anchor (arguments . (string) @name) (do_block)) @definition.suite
 (#eq? @anchor "describe")
 (#set! separator " > "))
((call target: (identifier) @anchor (arguments . (string) @name)) @definition.test
 (#any-of? @anchor "test" "property")
 (#set! separator " > "))
((call target: (identifier) @anchor (arguments . (alias) @name)) @definition.test
 (#eq? @anchor "doctest")
 (#set! separator " > "))

; def name(args), def name(args) when guard, def name, and friends: Module.name
((call
   target: (identifier) @_def
   (arguments . [(call target: (identifier) @name)
                 (binary_operator left: (call target: (identifier) @name))
                 (identifier) @name])) @definition.function
 (#any-of? @_def "def" "defp" "defmacro" "defmacrop" "defguard" "defguardp" "defdelegate" "defn" "defnp"))

((call target: (identifier) @_def (arguments . (alias) @name)) @definition.module
 (#eq? @_def "defmodule"))
((call target: (identifier) @_def (arguments . (alias) @name)) @definition.interface
 (#eq? @_def "defprotocol"))
; defimpl Shape, for: Basket is the module Shape.Basket.
((call target: (identifier) @_def
   (arguments . (alias) @qualifier (keywords (pair key: (keyword) @_for value: (alias) @name)))) @definition.impl
 (#eq? @_def "defimpl") (#match? @_for "^for: ?$"))
((call target: (identifier) @_def (arguments . (alias) @name)) @definition.impl
 (#eq? @_def "defimpl"))
