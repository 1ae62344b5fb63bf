; C# definitions for the speky scanner (captures: see README.md).

; xUnit [Fact]/[Theory], NUnit [Test]/[TestCase]/[TestCaseSource]/[Theory], MSTest
; [TestMethod]/[DataTestMethod]: simple or qualified, with or without the Attribute suffix.
((attribute name: [(identifier) @_attr (qualified_name (identifier) @_attr .)]) @test.attribute
 (#match? @_attr "^(Fact|Theory|Test|TestCase|TestCaseSource|TestMethod|DataTestMethod|SkippableFact|SkippableTheory|Property)(Attribute)?$"))

; Namespaces qualify their contents: Ns.Class.Method (a dotted name stays as written).
(namespace_declaration name: (_) @name) @definition.namespace
(file_scoped_namespace_declaration name: (_) @name) @definition.namespace

(class_declaration name: (identifier) @name) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(struct_declaration name: (identifier) @name) @definition.struct
(interface_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(delegate_declaration name: (identifier) @name) @definition.type

(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.method
(destructor_declaration name: (identifier) @name) @definition.method
(local_function_statement name: (identifier) @name) @definition.function
(property_declaration name: (identifier) @name) @definition.field
(event_declaration name: (identifier) @name) @definition.field
(field_declaration (variable_declaration (variable_declarator (identifier) @name))) @definition.field
(event_field_declaration (variable_declaration (variable_declarator (identifier) @name))) @definition.field

; Base types, for rules on base classes.
(class_declaration bases: (base_list [(identifier) @base (qualified_name (identifier) @base .) (generic_name (identifier) @base)])) @definition.class

; Enum members: Kind.Discounted.
(enum_member_declaration_list (enum_member_declaration name: (identifier) @name) @definition.enum_member)
